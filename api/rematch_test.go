package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestRematch runs POST /matches/{id}/rematch through the real router on SQLite and on
// PostgreSQL: refused while the match is live and to anyone not seated; the first call
// offers the next match with a new seed (waiting, the caller's seat taken, the other human's
// reserved for it), later calls answer the same one; the other holder's call accepts and
// deals; each anonymous holder gets its own working token, once; the old tokens do not work
// on the new match; the finished match's view and history item name it; a bound seat's key
// works on it, and a rematch against a bot, with no one to wait for, is dealt at once.
func TestRematch(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			t.Run("Anonymous", func(t *testing.T) { testRematchAnonymous(t, h) })
			t.Run("Bound", func(t *testing.T) { testRematchBound(t, h) })
		})
	}
}

// rematch asks for the rematch of tb with credential and decodes a 200 answer.
func (tb *table) rematch(credential string) api.RematchResponse {
	tb.h.t.Helper()
	r := tb.h.do(http.MethodPost, tb.path("/rematch"), nil, auth(credential)...)
	if r.status != http.StatusOK {
		tb.h.t.Fatalf("rematch: %d %s", r.status, r.body)
	}
	var out api.RematchResponse
	r.decode(tb.h.t, &out)
	return out
}

func testRematchAnonymous(t *testing.T, h *harness) {
	target := 5
	tb := h.createMatch(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{{Name: "An", Kind: "human"}, {Name: "Bea", Kind: "human"}}})
	h.do(http.MethodPost, tb.path("/rematch"), nil, auth(tb.tokens[0])...).problem(t, http.StatusConflict, "MATCH_NOT_FINISHED")
	old := tb.playOut(nil)
	h.do(http.MethodPost, tb.path("/rematch"), nil).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	stranger := h.newPlayer("Stranger R")
	h.do(http.MethodPost, tb.path("/rematch"), nil, auth(stranger.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	h.do(http.MethodPost, tb.path("/rematch?seed=00"), nil, auth(tb.tokens[0])...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do(http.MethodPost, "/api/v1/matches/nope/rematch", nil, auth(tb.tokens[0])...).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")

	first := tb.rematch(tb.tokens[0])
	next := first.Match
	// An offer: Bea's seat waits for her, kept by her old name (an anonymous seat has no id).
	if first.Token == nil || next.ID == tb.id || next.Status != "waiting" || next.Target != 5 || next.Commitment == old.Commitment ||
		next.Seats[0].Name != "An" || next.Seats[1].Kind != "open" || next.Seats[1].ReservedFor == nil ||
		*next.Seats[1].ReservedFor != (api.Reservation{Name: "Bea"}) || next.OfferExpiresAt == nil || len(next.OpenSeats) != 0 ||
		next.Hand != nil || next.You == nil || next.You.Seat != 0 {
		t.Fatalf("first rematch %+v", first)
	}
	nt := &table{h: h, id: next.ID, tokens: map[int]string{0: *first.Token}}
	// The offer is audited clean while Bea has not answered.
	if rep := nt.audit(-1); !rep.OK {
		t.Fatalf("audit of a rematch offer: %+v", rep)
	}
	if again := tb.rematch(tb.tokens[0]); again.Match.ID != next.ID || again.Token != nil || again.Match.Status != "waiting" {
		t.Fatalf("a later call by seat 0: %+v", again)
	}
	// Only Bea's call on the old match takes her seat: not a join, with or without a name.
	nt.join(1, "Bea", "").problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	second := tb.rematch(tb.tokens[1])
	if second.Match.ID != next.ID || second.Token == nil || *second.Token == *first.Token || second.Match.You.Seat != 1 ||
		second.Match.Status != "in_progress" || second.Match.Seats[1].Name != "Bea" || second.Match.OfferExpiresAt != nil {
		t.Fatalf("seat 1's call: %+v", second)
	}
	nt.tokens[1] = *second.Token
	for seat := range 2 {
		if v := nt.view(seat); v.You == nil || v.You.Seat != seat {
			t.Fatalf("seat %d's new token reads %+v", seat, v.You)
		}
		// The old token is the old match's: on the new match it is nobody.
		h.do(http.MethodGet, nt.path(""), nil, auth(tb.tokens[seat])...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	}
	if v := tb.view(-1); v.NextMatchID != next.ID {
		t.Fatalf("the finished match's view names %q, want %q", v.NextMatchID, next.ID)
	}
	// The tag of a match with a rematch goes on with -r, and is still an If-Match: the move
	// is refused for the match's end, not for the tag.
	tag := h.do(http.MethodGet, tb.path(""), nil, auth(tb.tokens[0])...).header.Get("ETag")
	if !strings.HasSuffix(tag, `-0-r"`) {
		t.Fatalf("the finished match's tag %q", tag)
	}
	tb.move(0, api.MoveRequest{Action: "draw"}, "If-Match", tag).problem(t, http.StatusConflict, "MATCH_FINISHED")
	var hist api.HistoryResponse
	h.do(http.MethodGet, "/api/v1/matches?status=finished&limit=100", nil).decode(t, &hist)
	found := false
	for _, it := range hist.Matches {
		if it.ID == tb.id {
			found = it.NextMatchID == next.ID
		}
	}
	if !found {
		t.Fatalf("the history item of the finished match does not name its rematch: %+v", hist.Matches)
	}
	if end := nt.playOut(nil); end.Status != "finished" {
		t.Fatalf("the rematch ends %s", end.Status)
	}
	if rep := nt.audit(-1); !rep.OK {
		t.Fatalf("audit of the finished rematch: %+v", rep)
	}
}

func testRematchBound(t *testing.T, h *harness) {
	ada := h.newPlayer("Ada R")
	target := 5
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Name: "Robo", Kind: "bot", Bot: "random"}}}, auth(ada.Key)...)
	var out api.CreateMatchResponse
	r.decode(t, &out)
	tb := &table{h: h, id: out.Match.ID, tokens: map[int]string{0: ada.Key}}
	tb.playOut(nil)
	res := tb.rematch(ada.Key)
	if res.Match.Seats[0].Player != ada.Player.ID || res.Match.Seats[1].Bot != "random" || res.Token == nil {
		t.Fatalf("rematch of a bound seat: %+v", res)
	}
	nt := &table{h: h, id: res.Match.ID, tokens: map[int]string{0: ada.Key}}
	if v := nt.view(0); v.You == nil || v.You.Seat != 0 {
		t.Fatalf("Ada's key on the rematch reads %+v", v.You)
	}
	nt.tokens[0] = *res.Token
	if v := nt.view(0); v.You == nil || v.You.Seat != 0 {
		t.Fatalf("the claimed token reads %+v", v.You)
	}
	if again := tb.rematch(ada.Key); again.Match.ID != res.Match.ID || again.Token != nil {
		t.Fatalf("a later call: %+v", again)
	}
}
