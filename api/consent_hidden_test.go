package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// consentServer is the live server with players over a SQLite file whose log the oracle reads.
func consentServer(t *testing.T) (*harness, *httptest.Server) {
	t.Helper()
	ls := newHarness(t, apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
	return ls, ls.Server
}

// storedSeed is match id's secret seed, as the store keeps it.
func storedSeed(t *testing.T, h *harness, id string) domain.Seed {
	t.Helper()
	m, err := h.store.Match(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Record.Seed
}

// unplayed judges the reads of a match no hand has been dealt in: no answer to any reader may
// hold its seed, a seat token, or any tile at all.
type unplayed struct {
	*oracle
	tb      *table
	srv     *httptest.Server
	readers map[string]string // reader's name -> credential ("" for a spectator)
}

func newUnplayed(t *testing.T, tb *table, srv *httptest.Server, readers map[string]string, tokens ...string) *unplayed {
	return &unplayed{oracle: &oracle{t: t, secret: storedSeed(t, tb.h, tb.id).String(), tokens: tokens}, tb: tb, srv: srv, readers: readers}
}

// judge fails when text shows what no one may see yet.
func (u *unplayed) judge(where, text string) {
	u.t.Helper()
	u.names(-1, where, text, nil)
}

// readAll reads the match through every read endpoint, and its stream to its last event, as
// every reader, and judges each answer.
func (u *unplayed) readAll(when string) {
	u.t.Helper()
	v := u.tb.view(-1)
	for who, cred := range u.readers {
		var hdr []string
		if cred != "" {
			hdr = auth(cred)
		}
		for _, path := range []string{"", "/events?limit=1000", "/replay?step=1", fmt.Sprintf("/replay?step=%d", v.Version), "/audit", "/export", "/export?format=text"} {
			r := u.tb.h.do(http.MethodGet, u.tb.path(path), nil, hdr...)
			if r.status != http.StatusOK {
				u.t.Fatalf("%s: GET %s as %s: %d %s", when, path, who, r.status, r.body)
			}
			u.judge(fmt.Sprintf("%s: GET %s as %s", when, path, who), string(r.body))
		}
		s, r := openStream(u.t, u.srv.URL+u.tb.path("/stream"), hdr...)
		if r != nil {
			if r.status != http.StatusNoContent {
				u.t.Fatalf("%s: the stream as %s: %d %s", when, who, r.status, r.body)
			}
			continue
		}
		seen := 0
		for seen < v.Version {
			f, ok := s.nextEvent()
			if !ok {
				u.t.Fatalf("%s: the stream as %s ended at seq %d of %d", when, who, seen, v.Version)
			}
			u.judge(fmt.Sprintf("%s: the stream as %s", when, who), f.data)
			seen = decodeFrame(u.t, f).Seq
		}
		s.close()
	}
}

// withoutToken is a JSON answer without its top-level token, the caller's own secret.
func withoutToken(t *testing.T, body []byte) []byte {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "token")
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNoHandSeenBeforeItsTimeThroughConsent: a decline, a withdrawal, a rematch offer and a
// resignation show no hand before its time (docs/design.md, "Who sees what"). While a match
// waits (a challenge, an offer) no answer to anyone (the challenger's token and key, the
// challenged player's key, a spectator), nor either player's stream, holds a tile, its secret
// seed or a token, before and after the decline or withdrawal; once the offer's last seat is
// accepted, the accepting answer and every read of the match (state, events, legal moves,
// replay, audit, exports, streams, refused moves) show each reader only what it may know; a
// resignation of one of three sides shows the resigner its own tiles only, and the match
// played on for it shows no one another's hand.
func TestNoHandSeenBeforeItsTimeThroughConsent(t *testing.T) {
	h, srv := consentServer(t)
	ada, bob := h.newPlayer("Ada H"), h.newPlayer("Bob H")
	as, _ := openPlayerStream(t, srv.URL, ada.Key, "")
	defer as.close()
	bs, _ := openPlayerStream(t, srv.URL, bob.Key, "")
	defer bs.close()

	// A challenge, declined; another, withdrawn.
	for _, how := range []string{"declined", "withdrawn"} {
		ch, _ := h.challenge(ada.Key, bob.Player.ID)
		u := newUnplayed(t, ch, srv, map[string]string{"the challenger's token": ch.tokens[0], "the challenger's key": ada.Key, "the challenged": bob.Key, "a spectator": ""}, ch.tokens[0])
		u.readAll(how + ", before")
		var r *reply
		if how == "declined" {
			r = ch.post("/seats/1/decline", bob.Key)
		} else {
			r = ch.post("/cancel", ada.Key)
		}
		if v := r.okView(t); v.Status != "cancelled" {
			t.Fatalf("%s: %s", how, v.Status)
		}
		u.judge(how+": the answer", string(r.body))
		u.readAll(how + ", after")
		for _, s := range []*playerSSE{as, bs} {
			e := s.expect("cancelled", ch.id)
			b, _ := json.Marshal(e)
			u.judge(how+": the player stream", string(b))
		}
	}

	// A rematch offer: while it waits nothing is dealt; the last acceptance deals.
	target := 5
	f := h.createMatch(api.CreateMatchRequest{Seed: seed1, Target: &target, Players: []api.PlayerRequest{{Name: "p0", Kind: "human"}, {Name: "p1", Kind: "human"}}})
	f.playOut(nil)
	offer := f.rematch(f.tokens[0])
	n := &table{h: h, id: offer.Match.ID, tokens: map[int]string{0: *offer.Token}}
	u := newUnplayed(t, n, srv, map[string]string{"the offerer": n.tokens[0], "a spectator": ""}, n.tokens[0], f.tokens[0], f.tokens[1])
	u.judge("the offer", string(withoutToken(t, h.do(http.MethodPost, f.path("/rematch"), nil, auth(f.tokens[0])...).body)))
	u.readAll("the offer")
	accept := h.do(http.MethodPost, f.path("/rematch"), nil, auth(f.tokens[1])...)
	var acc api.RematchResponse
	accept.decode(t, &acc)
	n.tokens[1] = *acc.Token
	seed := storedSeed(t, h, n.id)
	o := newOracleOf(t, n, seed)
	o.judgeJSON(1, "the last acceptance", withoutToken(t, accept.body))
	sw := newSweep(t, n, srv)
	n.playOut(func(turn, seat int, moves []api.LegalMove) bool {
		o := newOracleOf(t, n, seed)
		tags := sw.cheap(o)
		if turn%4 == 0 {
			sw.full(o, len(o.handAt), tags)
		}
		return false
	})

	// A resignation of one of three sides: the match goes on, the seat played by its bot.
	three := h.createMatch(api.CreateMatchRequest{Seed: seed1, Target: new(60), Players: []api.PlayerRequest{{Name: "p0", Kind: "human"}, {Name: "p1", Kind: "human"}, {Name: "p2", Kind: "human"}}})
	resign := three.post("/resign", three.tokens[1])
	o = newOracleOf(t, three, storedSeed(t, h, three.id))
	o.judgeJSON(1, "the resignation", resign.body)
	three.playOut(func(turn, seat int, _ []api.LegalMove) bool {
		o := newOracleOf(t, three, storedSeed(t, h, three.id))
		for _, who := range []int{0, 1, 2, -1} {
			var hdr []string
			if who >= 0 {
				hdr = auth(three.tokens[who])
			}
			for _, path := range []string{"", "/events?limit=1000", "/audit", "/export", "/replay?step=3"} {
				r := h.do(http.MethodGet, three.path(path), nil, hdr...)
				if r.status != http.StatusOK {
					t.Fatalf("GET %s as %d: %d %s", path, who, r.status, r.body)
				}
				o.judgeJSON(who, fmt.Sprintf("turn %d: GET %s", turn, path), r.body)
			}
			o.judgeText(who, fmt.Sprintf("turn %d: the text export", turn), h.do(http.MethodGet, three.path("/export?format=text"), nil, hdr...).body)
		}
		return false
	})
}
