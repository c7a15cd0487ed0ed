package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestConsent runs consent and resignation through the real router, on SQLite and on
// PostgreSQL (docs/api-matches.md, "Consent"): a challenge declined by its player and withdrawn by
// its challenger, every refusal of both, a rematch offer of three seats accepted seat by seat
// with who has answered shown, one declined by an old token after which the route is
// REMATCH_CANCELLED, reserved seats kept out of the lobby, resignations of two and of three
// sides, and a rated match given a clock.
func TestConsent(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			t.Run("Decline", func(t *testing.T) { testDecline(t, h) })
			t.Run("Withdraw", func(t *testing.T) { testWithdraw(t, h) })
			t.Run("RematchOffer", func(t *testing.T) { testRematchOffer(t, h) })
			t.Run("Lobby", func(t *testing.T) { testLobbyHidesReservedSeats(t, h) })
			t.Run("Resign", func(t *testing.T) { testResign(t, h) })
			t.Run("RatedClock", func(t *testing.T) { testRatedClock(t, h) })
		})
	}
}

// post sends a bodiless POST to tb's path suffix with credential ("" for none).
func (tb *table) post(suffix, credential string) *reply {
	tb.h.t.Helper()
	var hdr []string
	if credential != "" {
		hdr = auth(credential)
	}
	return tb.h.do(http.MethodPost, tb.path(suffix), nil, hdr...)
}

// okView decodes a 200 answer's match view.
func (r *reply) okView(t *testing.T) api.MatchView {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("want 200, got %d %s", r.status, r.body)
	}
	var v api.MatchView
	r.decode(t, &v)
	return v
}

func testDecline(t *testing.T, h *harness) {
	ada, bob, cy := h.newPlayer("Ada D"), h.newPlayer("Bob D"), h.newPlayer("Cy D")
	tb, _ := h.challenge(ada.Key, bob.Player.ID)
	// Nobody but Bob declines his seat: not Cy, not Ada, not without a credential; a seat kept
	// for no one cannot be declined at all.
	tb.post("/seats/1/decline", "").problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.post("/seats/1/decline", cy.Key).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.post("/seats/1/decline", ada.Key).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.post("/seats/1/decline", tb.tokens[0]).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.post("/seats/0/decline", bob.Key).problem(t, http.StatusConflict, "SEAT_NOT_RESERVED")
	tb.post("/seats/1/decline?why=no", bob.Key).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do(http.MethodPost, "/api/v1/matches/nope/seats/1/decline", nil, auth(bob.Key)...).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")

	v := tb.post("/seats/1/decline", bob.Key).okView(t)
	if v.Status != "cancelled" || v.Cancelled == nil || v.Cancelled.Reason != "declined" || v.Cancelled.Seat == nil || *v.Cancelled.Seat != 1 || v.You != nil {
		t.Fatalf("after the decline: %+v", v)
	}
	ev := tb.events(-1).Events
	if last := ev[len(ev)-1]; last.Type != "match.cancelled" || last.Data.Reason != "declined" || *last.Data.Seat != 1 {
		t.Fatalf("the last event %+v", last)
	}
	// A cancelled match takes nothing more, and is never played.
	tb.joinWith(1, bob.Key, "").problem(t, http.StatusConflict, "MATCH_FINISHED")
	tb.post("/seats/1/decline", bob.Key).problem(t, http.StatusConflict, "MATCH_FINISHED")
	tb.post("/cancel", ada.Key).problem(t, http.StatusConflict, "MATCH_FINISHED")
	if rep := tb.audit(-1); !rep.OK {
		t.Fatalf("audit of a declined challenge: %+v", rep)
	}
	var hist api.HistoryResponse
	h.do(http.MethodGet, "/api/v1/matches?status=cancelled&limit=100", nil).decode(t, &hist)
	if !slices.ContainsFunc(hist.Matches, func(it api.HistoryItem) bool { return it.ID == tb.id && it.Status == "cancelled" }) {
		t.Fatalf("the history of cancelled matches lacks %s: %+v", tb.id, hist.Matches)
	}
}

func testWithdraw(t *testing.T, h *harness) {
	ada, bob := h.newPlayer("Ada W"), h.newPlayer("Bob W")
	tb, _ := h.challenge(ada.Key, bob.Player.ID)
	// Bob is reserved a seat, not seated: he declines, he does not withdraw.
	tb.post("/cancel", bob.Key).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.post("/cancel", "").problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.post("/resign", tb.tokens[0]).problem(t, http.StatusConflict, "MATCH_NOT_STARTED")
	v := tb.post("/cancel", tb.tokens[0]).okView(t)
	if v.Status != "cancelled" || v.Cancelled == nil || v.Cancelled.Reason != "withdrawn" || *v.Cancelled.Seat != 0 || v.You == nil {
		t.Fatalf("after the withdrawal: %+v", v)
	}
	// A match that has started is resigned, not withdrawn.
	played, _ := h.challenge(ada.Key, bob.Player.ID)
	if r := played.joinWith(1, bob.Key, ""); r.status != http.StatusCreated {
		t.Fatalf("Bob joins: %d %s", r.status, r.body)
	}
	played.post("/cancel", ada.Key).problem(t, http.StatusConflict, "MATCH_STARTED")
	played.post("/seats/1/decline", bob.Key).problem(t, http.StatusConflict, "MATCH_STARTED")
}

func testRematchOffer(t *testing.T, h *harness) {
	ada, bob := h.newPlayer("Ada O"), h.newPlayer("Bob O")
	target := 5
	tb := h.createMatchWith(ada.Key, api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Player: bob.Player.ID}}})
	tb.tokens[1] = tb.joinWith(1, bob.Key, "").tokenOf(t)
	tb.playOut(nil)

	// Ada offers: Bob's seat waits for him, by id and name, and his key reads the offer.
	offer := tb.rematch(ada.Key)
	nt := &table{h: h, id: offer.Match.ID, tokens: map[int]string{0: ada.Key}}
	want := api.Reservation{ID: bob.Player.ID, Name: "Bob O"}
	if offer.Match.Status != "waiting" || offer.Match.Seats[1].ReservedFor == nil || *offer.Match.Seats[1].ReservedFor != want {
		t.Fatalf("the offer %+v", offer.Match)
	}
	var asked api.MatchView
	read := h.do(http.MethodGet, nt.path(""), nil, auth(bob.Key)...)
	read.decode(t, &asked)
	if read.status != http.StatusOK || asked.Seats[1].Kind != "open" || asked.Seats[1].ReservedFor == nil {
		t.Fatalf("Bob reads the offer: %d %s", read.status, read.body)
	}
	// Bob declines through the seat's old credential: his key. The offer is over, and so is
	// the rematch of that match.
	nt.post("/seats/1/decline", bob.Key).okView(t)
	h.do(http.MethodPost, tb.path("/rematch"), nil, auth(bob.Key)...).problem(t, http.StatusConflict, "REMATCH_CANCELLED")
	h.do(http.MethodPost, tb.path("/rematch"), nil, auth(ada.Key)...).problem(t, http.StatusConflict, "REMATCH_CANCELLED")

	// Three seats, two of them anonymous: the offer shows who has answered, seat by seat.
	three := h.createMatch(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{{Name: "An", Kind: "human"}, {Name: "Bea", Kind: "human"}, {Name: "Cy", Kind: "human"}}})
	three.playOut(nil)
	first := three.rematch(three.tokens[2])
	if first.Match.Status != "waiting" || first.Match.Seats[2].Kind != "human" || first.Match.Seats[0].ReservedFor == nil ||
		first.Match.Seats[0].ReservedFor.Name != "An" || first.Match.Seats[0].ReservedFor.ID != "" || first.Match.Seats[1].ReservedFor == nil {
		t.Fatalf("the offer of seat 2 %+v", first.Match)
	}
	next := &table{h: h, id: first.Match.ID, tokens: map[int]string{2: *first.Token}}
	// A stranger's token on the offer's seat is nobody; An's old token declines only seat 0.
	next.post("/seats/1/decline", three.tokens[0]).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	bea := three.rematch(three.tokens[1])
	if v := bea.Match; v.Status != "waiting" || v.Seats[1].Kind != "human" || v.Seats[0].Kind != "open" || v.Seats[0].ReservedFor == nil || bea.Token == nil {
		t.Fatalf("after Bea accepts, An has not answered yet: %+v", v)
	}
	if rep := next.audit(-1); !rep.OK {
		t.Fatalf("audit of an offer half accepted: %+v", rep)
	}
	an := three.rematch(three.tokens[0])
	if an.Match.Status != "in_progress" || an.Token == nil || an.Match.You.Seat != 0 {
		t.Fatalf("the last acceptance deals: %+v", an.Match)
	}
	next.tokens[0], next.tokens[1] = *an.Token, *bea.Token
	if end := next.playOut(nil); end.Status != "finished" {
		t.Fatalf("the rematch ends %s", end.Status)
	}
}

// tokenOf is a join answer's token.
func (r *reply) tokenOf(t *testing.T) string {
	t.Helper()
	if r.status != http.StatusCreated {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	var j api.JoinResponse
	r.decode(t, &j)
	return j.Token
}

func testLobbyHidesReservedSeats(t *testing.T, h *harness) {
	ada, bob := h.newPlayer("Ada L"), h.newPlayer("Bob L")
	listed := func(players ...api.PlayerRequest) *table {
		return h.createMatchWith(ada.Key, api.CreateMatchRequest{Listed: true, Players: append([]api.PlayerRequest{{Kind: "human", Player: "me"}}, players...)})
	}
	challenge := listed(api.PlayerRequest{Kind: "human", Player: bob.Player.ID})
	mixed := listed(api.PlayerRequest{Kind: "human", Player: bob.Player.ID}, api.PlayerRequest{Kind: "open"})
	lobby := h.lobby()
	for _, it := range lobby {
		if it.ID == challenge.id {
			t.Fatalf("a listed challenge, whose only open seat is Bob's, is in the lobby: %+v", it)
		}
		if it.ID == mixed.id && !slices.Equal(it.OpenSeats, []int{2}) {
			t.Fatalf("the lobby shows open seats %v of a match whose seat 1 is Bob's", it.OpenSeats)
		}
		if it.ID == mixed.id && (it.Players[1].ReservedFor == nil || it.Players[1].ReservedFor.ID != bob.Player.ID) {
			t.Fatalf("the lobby item does not say for whom seat 1 is kept: %+v", it.Players)
		}
	}
	if !slices.ContainsFunc(lobby, func(it api.HistoryItem) bool { return it.ID == mixed.id }) {
		t.Fatalf("a listed match with a seat open to anyone is not in the lobby")
	}
	// Anyone takes the open seat from the lobby; Bob's stays his.
	mixed.join(1, "Dee", "").problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	mixed.mustJoin(2, "Dee", "")
}

func testResign(t *testing.T, h *harness) {
	// Two sides: the other side wins at once, whatever the score, and the seed is revealed.
	two := h.create(seed1, false, "human", "human")
	two.post("/resign", "").problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	two.post("/resign?seat=1", two.tokens[1]).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	two.mustMove(0, play("5-5", "")) // An scores 10
	v := two.post("/resign", two.tokens[0]).okView(t)
	if v.Status != "finished" || v.WinnerSide == nil || *v.WinnerSide != 1 || v.Scores[0] != 10 || v.Scores[1] != 0 {
		t.Fatalf("after An resigns: %s, winner %v, scores %v", v.Status, v.WinnerSide, v.Scores)
	}
	ev := two.events(-1).Events
	if n := len(ev); ev[n-2].Type != "seat.resigned" || *ev[n-2].Data.Seat != 0 || ev[n-1].Type != "match.ended" || ev[n-1].Data.Seed == "" {
		t.Fatalf("the log ends %+v", ev[n-2:])
	}
	two.post("/resign", two.tokens[1]).problem(t, http.StatusConflict, "MATCH_FINISHED")
	if rep := two.audit(-1); !rep.OK {
		t.Fatalf("audit of a resigned match: %+v", rep)
	}

	// Three sides: the seat is played by its bot to the end, for good.
	three := h.create("", false, "human", "human", "human")
	v = three.post("/resign", three.tokens[1]).okView(t)
	if v.Status != "in_progress" || !v.Seats[1].Resigned || !v.Seats[1].Autoplay || v.You == nil || v.You.Seat != 1 {
		t.Fatalf("after Bea resigns: %+v", v)
	}
	three.post("/resign", three.tokens[1]).problem(t, http.StatusConflict, "SEAT_RESIGNED")
	three.post("/seats/1/resume", three.tokens[1]).problem(t, http.StatusConflict, "SEAT_RESIGNED")
	delete(three.tokens, 1)
	end := three.playOut(nil)
	if end.Status != "finished" || *end.WinnerSide == 1 {
		t.Fatalf("the match of three ends %s, won by side %v", end.Status, end.WinnerSide)
	}
	if rep := three.audit(-1); !rep.OK {
		t.Fatalf("audit of a match played on after a resignation: %+v", rep)
	}
}

func testRatedClock(t *testing.T, h *harness) {
	ada := h.newPlayer("Ada T")
	rated := h.createMatchWith(ada.Key, api.CreateMatchRequest{Rated: true, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Name: "G", Kind: "bot", Bot: "greedy"}}})
	created := rated.events(-1).Events[0]
	if v := rated.view(-1); v.TurnSeconds != 60 || created.Data.TurnSeconds == nil || *created.Data.TurnSeconds != 60 {
		t.Fatalf("a rated match created without a clock has turn_seconds %d", v.TurnSeconds)
	}
	slow := h.createMatchWith(ada.Key, api.CreateMatchRequest{Rated: true, TurnSeconds: new(300), Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Name: "G", Kind: "bot", Bot: "greedy"}}})
	if v := slow.view(-1); v.TurnSeconds != 300 {
		t.Fatalf("a rated match's own clock is %d, want 300", v.TurnSeconds)
	}
}
