package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestPlayerStream runs the player's stream through the real router, on SQLite and on
// PostgreSQL: its snapshot, each of its events as a challenge is taken and played to its end
// and rematched, a ticket opening it once, every refusal, and its end when the key is rotated.
func TestPlayerStream(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			ls := newHarness(t, apitest.WithStore(eng.open(t)), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
			t.Run("Snapshot", func(t *testing.T) { testPlayerSnapshot(t, ls) })
			t.Run("Events", func(t *testing.T) { testPlayerEvents(t, ls) })
			t.Run("Tickets", func(t *testing.T) { testPlayerStreamTickets(t, ls) })
			t.Run("Refusals", func(t *testing.T) { testPlayerStreamRefusals(t, ls) })
			t.Run("RotatedKeyEnds", func(t *testing.T) { testPlayerStreamRotated(t, ls) })
		})
	}
}

// againstBot creates, with key, a match of the key's player (seat 0, to lead: seed1) and a bot.
func againstBot(h *harness, key string, target int) *table {
	h.t.Helper()
	return h.createMatchWith(key, api.CreateMatchRequest{Seed: seed1, Target: &target, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Name: "Bot", Kind: "bot", Bot: "greedy"}}})
}

func testPlayerSnapshot(t *testing.T, ls *harness) {
	h := ls
	ada, bob := h.newPlayer("Ada P"), h.newPlayer("Bob P")
	mine := againstBot(h, ada.Key, 150)
	challenged, _ := h.challenge(bob.Key, ada.Player.ID)
	taken, _ := h.challenge(bob.Key, ada.Player.ID)
	if r := taken.joinWith(1, ada.Key, ""); r.status != http.StatusCreated {
		t.Fatalf("Ada takes a challenge: %d %s", r.status, r.body)
	}
	ps, snap := openPlayerStream(t, ls.Server.URL, ada.Key, "")
	defer ps.close()
	turns, challenges := itemIDs(snap.Turns), itemIDs(snap.Challenges)
	if !slices.Contains(turns, mine.id+"/0") || !slices.Equal(challenges, []string{challenged.id + "/1"}) {
		t.Fatalf("snapshot turns %v challenges %v; want %s/0 among the turns, and %s/1 alone challenged", turns, challenges, mine.id, challenged.id)
	}
	for _, it := range snap.Turns {
		if it.Turn == nil || *it.Turn != it.Seat || it.Status != "in_progress" {
			t.Fatalf("a turn that is not Ada's: %+v", it)
		}
	}
	// Bob's snapshot: no turn of his (he waits for Ada), no challenge to him.
	bs, bsnap := openPlayerStream(t, ls.Server.URL, bob.Key, "")
	bs.close()
	if len(bsnap.Challenges) != 0 || slices.Contains(itemIDs(bsnap.Turns), challenged.id+"/0") {
		t.Fatalf("Bob's snapshot %+v", bsnap)
	}
}

func testPlayerEvents(t *testing.T, ls *harness) {
	h := ls
	ada, bob := h.newPlayer("Ada V"), h.newPlayer("Bob V")
	ps, _ := openPlayerStream(t, ls.Server.URL, ada.Key, "")
	defer ps.close()
	bs, _ := openPlayerStream(t, ls.Server.URL, bob.Key, "")
	defer bs.close()

	// A challenge arrives; Ada takes it, which deals.
	tb, _ := h.challenge(bob.Key, ada.Player.ID)
	if e := ps.expect("challenge", tb.id); e.Seat != 1 {
		t.Fatalf("challenge %+v", e)
	}
	bs.expectJoined(tb.id, 0, "Bob V") // Bob's own seat, created with "me"
	if r := tb.joinWith(1, ada.Key, ""); r.status != http.StatusCreated {
		t.Fatalf("Ada joins: %d %s", r.status, r.body)
	}
	if e := ps.expectJoined(tb.id, 1, "Ada V"); e.Seat != 1 {
		t.Fatalf("Ada's own join %+v", e)
	}
	ps.expect("started", tb.id)
	if e := bs.expectJoined(tb.id, 1, "Ada V"); e.Seat != 0 {
		t.Fatalf("Bob hears of the join as %+v", e)
	}
	bs.expect("started", tb.id)

	// Moves: each time Bob moves and the turn comes to Ada, she hears of it, with the version.
	creds := map[int]string{0: bob.Key, 1: ada.Key}
	streams := map[int]*playerSSE{0: bs, 1: ps}
	v := tb.view(-1)
	streams[v.Hand.Turn].expectTurn(tb.id, v.Hand.Turn, v.Version)
	for turn := 0; turn < 6; turn++ {
		seat := v.Hand.Turn
		tb.moveFor(seat, creds[seat], turn)
		if v = tb.view(-1); v.Status != "in_progress" {
			break
		}
		streams[v.Hand.Turn].expectTurn(tb.id, v.Hand.Turn, v.Version)
	}

	// An open seat Ada takes with her key: the match is new to her stream, and she hears of
	// her own seat, then of the deal.
	lobby := h.createMatchWith(bob.Key, api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "open"}}})
	if r := lobby.joinWith(1, ada.Key, ""); r.status != http.StatusCreated {
		t.Fatalf("Ada joins the open seat: %d %s", r.status, r.body)
	}
	if e := ps.expectJoined(lobby.id, 1, "Ada V"); e.Seat != 1 {
		t.Fatalf("Ada's join of an open seat %+v", e)
	}
	ps.expect("started", lobby.id)
	if e := bs.expectJoined(lobby.id, 0, "Bob V"); e.Seat != 0 {
		t.Fatalf("Bob's own seat %+v", e)
	}
	bs.expectJoined(lobby.id, 1, "Ada V")
	bs.expect("started", lobby.id)

	// Against a bot to a short end, then a rematch.
	short := againstBot(h, ada.Key, 5)
	ps.expectJoined(short.id, 0, "Ada V")
	ps.expect("turn", short.id)
	short.tokens[0] = ada.Key
	end := short.playOut(nil)
	e := ps.expect("ended", short.id)
	if e.Status != "finished" || e.WinnerSide == nil || *e.WinnerSide != *end.WinnerSide {
		t.Fatalf("ended %+v, the match %+v", e, end.WinnerSide)
	}
	r := h.do(http.MethodPost, short.path("/rematch"), nil, auth(ada.Key)...)
	var rm api.RematchResponse
	r.decode(t, &rm)
	if r.status != http.StatusOK {
		t.Fatalf("rematch: %d %s", r.status, r.body)
	}
	if e := ps.expect("rematch", short.id); e.NextMatchID != rm.Match.ID || e.Seat != 0 {
		t.Fatalf("rematch %+v, want next %s", e, rm.Match.ID)
	}
}

func testPlayerStreamTickets(t *testing.T, ls *harness) {
	h := ls
	ada := h.newPlayer("Ada K")
	pt := h.playerTicket(ada.Key)
	ps, _ := openPlayerStream(t, ls.Server.URL, "", pt.Ticket)
	tb, _ := h.challenge(h.newPlayer("Bob K").Key, ada.Player.ID)
	ps.expect("challenge", tb.id)
	ps.close()
	base := ls.Server.URL + "/api/v1/players/me/stream?ticket="
	refusedPlayerStream(t, base+url.QueryEscape(pt.Ticket), http.StatusUnauthorized, "UNAUTHORIZED") // used
	seat := h.seatTicket(tb.id, tb.tokens[0])
	refusedPlayerStream(t, base+url.QueryEscape(seat.Ticket), http.StatusUnauthorized, "UNAUTHORIZED") // a match stream's
	for _, bad := range []string{"", "x"} {
		refusedPlayerStream(t, base+url.QueryEscape(bad), http.StatusUnauthorized, "UNAUTHORIZED")
	}
	refusedPlayerStream(t, base+url.QueryEscape(ada.Key), http.StatusBadRequest, "INVALID_REQUEST") // a key in a URL
	fresh := h.playerTicket(ada.Key)
	refusedPlayerStream(t, base+url.QueryEscape(fresh.Ticket), http.StatusBadRequest, "INVALID_REQUEST", auth(ada.Key)...)
	ls.Clock.Advance(61e9)
	refusedPlayerStream(t, base+url.QueryEscape(fresh.Ticket), http.StatusUnauthorized, "UNAUTHORIZED") // expired
	ls.Clock.Advance(-61e9)
}

func testPlayerStreamRefusals(t *testing.T, ls *harness) {
	h := ls
	ada := h.newPlayer("Ada N")
	u := ls.Server.URL + "/api/v1/players/me/stream"
	seat := h.create("", false, "human", "human").tokens[0]
	for _, hdr := range [][]string{nil, auth(ada.Key + "x"), auth(seat), {"Authorization", "Basic " + ada.Key}} {
		refusedPlayerStream(t, u, http.StatusUnauthorized, "UNAUTHORIZED", hdr...)
	}
	refusedPlayerStream(t, u+"?after=1", http.StatusBadRequest, "INVALID_REQUEST", auth(ada.Key)...)
	// Capped like a match stream: one per client here.
	capped := newHarness(t, apitest.WithStore(engines[0].open(t)), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.ServerConfig(func(c *api.Config) { c.MaxStreamsPerClient = 1 }), apitest.Live(nil))
	bo := capped.newPlayer("Bo N")
	s, _ := openPlayerStream(t, capped.Server.URL, bo.Key, "")
	defer s.close()
	refusedPlayerStream(t, capped.Server.URL+"/api/v1/players/me/stream", http.StatusTooManyRequests, "RATE_LIMITED", auth(bo.Key)...)
	tb := capped.create("", false, "human", "human")
	refusedStream(t, capped.Server.URL+tb.path("/stream"), http.StatusTooManyRequests, "RATE_LIMITED")
}

func testPlayerStreamRotated(t *testing.T, ls *harness) {
	h := ls
	ada := h.newPlayer("Ada O")
	byKey, _ := openPlayerStream(t, ls.Server.URL, ada.Key, "")
	byTicket, _ := openPlayerStream(t, ls.Server.URL, "", h.playerTicket(ada.Key).Ticket)
	spare := h.playerTicket(ada.Key)
	if r := h.do(http.MethodPost, "/api/v1/players/me/key", nil, auth(ada.Key)...); r.status != http.StatusOK {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	untilEnd(t, byKey.sse)
	untilEnd(t, byTicket.sse)
	refusedPlayerStream(t, ls.Server.URL+"/api/v1/players/me/stream?ticket="+url.QueryEscape(spare.Ticket), http.StatusUnauthorized, "UNAUTHORIZED")
	refusedPlayerStream(t, ls.Server.URL+"/api/v1/players/me/stream", http.StatusUnauthorized, "UNAUTHORIZED", auth(ada.Key)...)
}
