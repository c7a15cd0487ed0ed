package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestEveryKindOfMatchAuditsAndVerifies makes, through the server serve wires (every feature
// on, reviews included) on SQLite and on PostgreSQL, every kind of match the API can make:
// anonymous, bots only, bound seats, a challenge, rated in every format, rematches (offered
// and accepted, dealt at once, declined, not accepted in time), seats left and taken again,
// turns timed out and autoplayed, resigned with two sides and with three, expired, declined
// and withdrawn. Each finished one is
// reviewed; each must audit clean (GET /audit ok) and its JSON export, review state and all,
// must hold up under allfives verify's own checks: the rules regenerate every field of every
// event, rated included.
func TestEveryKindOfMatchAuditsAndVerifies(t *testing.T) {
	engines := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "allfives.db") },
		"postgres": func(t *testing.T) string { return pgtest.URL(t) },
	}
	for name, db := range engines {
		t.Run(name, func(t *testing.T) {
			k := newKindServer(t, db(t))
			kinds := everyKind(t, k)
			if len(kinds) != 19 {
				t.Fatalf("%d kinds of match made, want 19: %v", len(kinds), kinds)
			}
			k.review(kinds)
			for kind, id := range kinds {
				k.audits(kind, id)
			}
		})
	}
}

// everyKind makes one match of every kind on k and answers their ids by kind.
func everyKind(t *testing.T, k *kindServer) map[string]string {
	target := 30
	out := map[string]string{}
	human := func(name string) api.PlayerRequest { return api.PlayerRequest{Name: name, Kind: "human"} }
	bot := func(strategy string) api.PlayerRequest {
		return api.PlayerRequest{Name: "bot " + strategy, Kind: "bot", Bot: strategy}
	}
	me := api.PlayerRequest{Kind: "human", Player: "me"}
	_, adaKey := k.player("Ada K")
	bo, boKey := k.player("Bo K")
	cy, cyKey := k.player("Cy K")
	dee, deeKey := k.player("Dee K")
	challenge := func(id string) api.PlayerRequest { return api.PlayerRequest{Kind: "human", Player: id} }
	played := func(kind string, m kindMatch) kindMatch {
		t.Helper()
		v := k.playOut(m)
		if v.Status != "finished" || v.Rated != strings.HasPrefix(kind, "rated") {
			t.Fatalf("%s ends %s, rated %v", kind, v.Status, v.Rated)
		}
		out[kind] = m.id
		return m
	}

	anon, _ := k.create(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{human("Ann"), human("Bea")}}, "")
	played("anonymous", anon)
	bots, created := k.create(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{bot("random"), bot("greedy"), {Name: "Rand", Kind: "bot", Bot: "random"}, {Name: "Greed", Kind: "bot", Bot: "greedy"}}}, "")
	if v := k.finished(created.Match.ID); v.Status != "finished" {
		t.Fatalf("bots only: %s", v.Status)
	}
	out["bots"] = bots.id
	bound, _ := k.create(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{me, bot("greedy")}}, adaKey)
	played("bound seats", bound)
	ch, _ := k.create(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{me, challenge(bo)}}, adaKey)
	k.join(ch, 1, "", "", boKey)
	played("challenge", ch)

	// Rated, in every format: a clock is given to each that asks for none.
	r2, rc := k.create(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{me, bot("greedy")}}, adaKey)
	if rc.Match.TurnSeconds != 60 {
		t.Fatalf("a rated match without a clock has turn_seconds %d, want 60", rc.Match.TurnSeconds)
	}
	played("rated 2p", r2)
	r3, _ := k.create(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{me, challenge(bo), bot("random")}}, adaKey)
	k.join(r3, 1, "", "", boKey)
	played("rated 3p", r3)
	r4, _ := k.create(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{me, challenge(bo), challenge(cy), bot("greedy")}}, adaKey)
	k.join(r4, 1, "", "", boKey)
	k.join(r4, 2, "", "", cyKey)
	played("rated 4p", r4)
	r22, _ := k.create(api.CreateMatchRequest{Rated: true, Partnerships: true, Target: &target, Players: []api.PlayerRequest{me, challenge(bo), challenge(cy), challenge(dee)}}, adaKey)
	k.join(r22, 1, "", "", boKey)
	k.join(r22, 2, "", "", cyKey)
	k.join(r22, 3, "", "", deeKey)
	played("rated 2v2", r22)

	// Rematches: an offer accepted seat by seat, and one with no one to wait for.
	var offer api.RematchResponse
	k.call(http.MethodPost, k.path(anon.id, "/rematch"), nil, anon.creds[0], http.StatusOK, &offer)
	var accepted api.RematchResponse
	k.call(http.MethodPost, k.path(anon.id, "/rematch"), nil, anon.creds[1], http.StatusOK, &accepted)
	played("rematch", kindMatch{id: offer.Match.ID, creds: map[int]string{0: *offer.Token, 1: *accepted.Token}})
	var dealt api.RematchResponse
	k.call(http.MethodPost, k.path(bound.id, "/rematch"), nil, adaKey, http.StatusOK, &dealt)
	played("rematch against a bot", kindMatch{id: dealt.Match.ID, creds: map[int]string{0: adaKey}})

	// Seats joined, left and taken again by another.
	seated, sc := k.create(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{human("Ann"), {Kind: "open"}, {Kind: "open"}}}, "")
	k.join(seated, 1, "Bo", sc.Invites[0].Invite, "")
	k.call(http.MethodPost, k.path(seated.id, "/seats/1/leave"), nil, seated.creds[1], http.StatusOK, nil)
	k.join(seated, 1, "Cy", sc.Invites[0].Invite, "")
	k.join(seated, 2, "Dee", sc.Invites[1].Invite, "")
	played("left and rejoined", seated)

	// The clock: the seat to move times out and is autoplayed, then takes its seat back.
	clocked, _ := k.create(api.CreateMatchRequest{Target: &target, TurnSeconds: new(10), AutoplayAfter: new(1), Players: []api.PlayerRequest{human("Ann"), human("Bea")}}, "")
	k.clock.Advance(11 * time.Second)
	k.sweep(1)
	v := k.view(clocked.id, "")
	autoplayed := -1
	for _, s := range v.Seats {
		if s.Autoplay {
			autoplayed = s.Seat
		}
	}
	if autoplayed < 0 {
		t.Fatalf("no seat on autoplay after a timeout: %+v", v.Seats)
	}
	k.call(http.MethodPost, k.path(clocked.id, "/seats/"+string(rune('0'+autoplayed))+"/resume"), nil, clocked.creds[autoplayed], http.StatusOK, nil)
	played("autoplay", clocked)

	// Resigned: two sides end at once; of three, the seat is played to the end.
	two, _ := k.create(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{human("Ann"), human("Bea")}}, "")
	var after api.MatchView
	k.call(http.MethodPost, k.path(two.id, "/resign"), nil, two.creds[1], http.StatusOK, &after)
	if after.Status != "finished" || after.WinnerSide == nil || *after.WinnerSide != 0 {
		t.Fatalf("two sides after a resignation: %s, winner %v", after.Status, after.WinnerSide)
	}
	out["resigned, two sides"] = two.id
	three, _ := k.create(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{human("Ann"), human("Bea"), human("Cy")}}, "")
	k.call(http.MethodPost, k.path(three.id, "/resign"), nil, three.creds[0], http.StatusOK, nil)
	delete(three.creds, 0)
	played("resigned, three sides", three)

	// Closed before they started: expired, declined, withdrawn, an offer not accepted in time,
	// a rematch declined by the old token.
	declined, _ := k.create(api.CreateMatchRequest{Players: []api.PlayerRequest{me, challenge(bo)}}, adaKey)
	k.call(http.MethodPost, k.path(declined.id, "/seats/1/decline"), nil, boKey, http.StatusOK, nil)
	out["declined"] = declined.id
	withdrawn, _ := k.create(api.CreateMatchRequest{Players: []api.PlayerRequest{me, challenge(cy)}}, adaKey)
	k.call(http.MethodPost, k.path(withdrawn.id, "/cancel"), nil, adaKey, http.StatusOK, nil)
	out["withdrawn"] = withdrawn.id
	var again api.RematchResponse
	k.call(http.MethodPost, k.path(offer.Match.ID, "/rematch"), nil, *offer.Token, http.StatusOK, &again)
	k.call(http.MethodPost, k.path(again.Match.ID, "/seats/1/decline"), nil, *accepted.Token, http.StatusOK, nil)
	out["rematch declined"] = again.Match.ID
	var lapsed api.RematchResponse
	k.call(http.MethodPost, k.path(ch.id, "/rematch"), nil, adaKey, http.StatusOK, &lapsed)
	expired, _ := k.create(api.CreateMatchRequest{Players: []api.PlayerRequest{human("Ann"), {Kind: "open"}}}, "")
	k.clock.Advance(11 * time.Minute) // past the rematch TTL
	k.sweep(1)
	out["offer expired"] = lapsed.Match.ID
	k.clock.Advance(time.Hour) // past the waiting TTL
	k.sweep(1)
	out["expired"] = expired.id
	for kind, want := range map[string]string{"declined": "cancelled", "withdrawn": "cancelled", "rematch declined": "cancelled", "offer expired": "cancelled", "expired": "expired"} {
		if v := k.view(out[kind], ""); v.Status != want {
			t.Fatalf("%s is %s, want %s", kind, v.Status, want)
		}
	}
	return out
}
