package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
)

// TestWholeTwoPlayerMatch plays a match of two humans to its end over HTTP, choosing from
// legal-moves each turn, and checks the result against the event log.
func TestWholeTwoPlayerMatch(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	end := tb.playOut(nil)
	checkFinal(t, tb, end, 2)
}

// TestWholePartnershipMatch plays four humans in partnerships to the end.
func TestWholePartnershipMatch(t *testing.T) {
	h := newHarness(t)
	tb := h.create("", true, "human", "human", "human", "human")
	end := tb.playOut(nil)
	checkFinal(t, tb, end, 2)
	if !end.Partnerships || end.Seats[2].Side != 0 || end.Seats[3].Side != 1 {
		t.Fatalf("partnership sides: %+v", end.Seats)
	}
}

// TestBotsPlayInsideTheRequest: a human against a bot plays to the end with the bot's turns
// taken inside the human's requests, and four bots finish within the create call.
func TestBotsPlayInsideTheRequest(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "greedy")
	checkFinal(t, tb, tb.playOut(func(_, seat int, _ []api.LegalMove) bool {
		if seat != 0 {
			t.Fatalf("a bot seat %d was left to move", seat)
		}
		return false
	}), 2)

	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Partnerships: true, Players: []api.PlayerRequest{
		{Name: "a", Kind: "bot", Bot: "random"}, {Name: "b", Kind: "bot", Bot: "greedy"},
		{Name: "c", Kind: "bot", Bot: "random"}, {Name: "d", Kind: "bot", Bot: "greedy"},
	}})
	var created api.CreateMatchResponse
	r.decode(t, &created)
	if r.status != http.StatusCreated || created.Match.Status != "finished" || len(created.Tokens) != 0 {
		t.Fatalf("four bots: %d, status %s, tokens %v", r.status, created.Match.Status, created.Tokens)
	}
}

// checkFinal checks a finished match: a side reached the target, and each side's score is
// the sum of the points its seats' plays and hand ends earned in the log.
func checkFinal(t *testing.T, tb *table, end api.MatchView, sides int) {
	t.Helper()
	// A finished match keeps its last table with every hand open, and no one is to act.
	if end.Status != "finished" || end.Hand == nil || len(end.Hand.Hands) != len(end.Seats) || end.Turn != nil || end.LegalMoves == nil || len(end.LegalMoves) != 0 || end.WinnerSide == nil || len(end.Scores) != sides {
		t.Fatalf("final view: %+v", end)
	}
	sideOf := map[int]int{}
	for _, s := range end.Seats {
		sideOf[s.Seat] = s.Side
	}
	sum := make([]int, sides)
	log := tb.events(-1)
	for _, e := range log.Events {
		switch e.Type {
		case "tile.played":
			sum[sideOf[*e.Data.Seat]] += *e.Data.Points
		case "hand.ended":
			if e.Data.WinnerSide.Side() != nil {
				sum[*e.Data.WinnerSide.Side()] += *e.Data.Points
			}
		}
	}
	if !slices.Equal(sum, end.Scores) {
		t.Fatalf("scores %v, but the log's points sum to %v", end.Scores, sum)
	}
	if end.Scores[*end.WinnerSide] < end.Target || slices.Max(end.Scores) != end.Scores[*end.WinnerSide] {
		t.Fatalf("winner side %d with scores %v, target %d", *end.WinnerSide, end.Scores, end.Target)
	}
	last := log.Events[len(log.Events)-1]
	if last.Type != "match.ended" || last.Data.Seed == "" || log.Version != last.Seq || end.Version != last.Seq {
		t.Fatalf("last event %+v, version %d / %d", last, log.Version, end.Version)
	}
}
