package api_test

import (
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// moverOf is the seat whose move an event records, with ok=false for the events that follow
// from a move (hand.ended, hand.started, match.ended) and the opening.
func moverOf(e domain.Event) (seat int, ok bool) {
	switch d := e.Data.(type) {
	case domain.TilePlayed:
		return d.Seat, true
	case domain.TileDrawn:
		return d.Seat, true
	case domain.TurnPassed:
		return d.Seat, true
	}
	return 0, false
}

// TestBotEventsShareTheirAppendsTime measures, from the export of finished matches of humans
// against expert bots, the gap between each event and the one before it. Only a human's move
// starts a new append; every other event (a bot's move, a hand's end, the next deal) lands in
// the same append as the event before it and must carry the very same time, so the gaps cannot
// show how long a bot thought (docs/api-matches.md, "Timing").
func TestBotEventsShareTheirAppendsTime(t *testing.T) {
	h := newHarness(t)
	for _, players := range [][]string{{"human", "expert"}, {"human", "expert", "expert", "expert"}} {
		req := api.CreateMatchRequest{Target: new(30)}
		for i, p := range players {
			pr := api.PlayerRequest{Name: "p" + string(rune('0'+i)), Kind: "human"}
			if p != "human" {
				pr.Kind, pr.Bot = "bot", p
			}
			req.Players = append(req.Players, pr)
		}
		tb := h.createMatch(req)
		tb.playOut(func(turn, seat int, moves []api.LegalMove) bool {
			res := tb.mustMove(seat, asMove(pick(moves, turn)))
			for _, e := range res.Events {
				if e.At != res.Events[0].At {
					t.Fatalf("one move's answer carries two times: %s and %s", res.Events[0].At, e.At)
				}
			}
			return true
		})
		var exported struct {
			Events []domain.Event `json:"events"`
		}
		tb.fetch("/export", -1, &exported)
		botEvents, humanMoves := 0, 0
		for i := 1; i < len(exported.Events); i++ {
			e, prev := exported.Events[i], exported.Events[i-1]
			if seat, ok := moverOf(e); ok && players[seat] == "human" {
				humanMoves++
				continue
			}
			if gap := e.At.Sub(prev.At); gap != 0 {
				t.Fatalf("%d players: seq %d (%s) is %v after seq %d: the gap shows the time taken between them", len(players), e.Seq, e.Type, gap, prev.Seq)
			}
			if _, ok := moverOf(e); ok {
				botEvents++
			}
		}
		if botEvents == 0 || humanMoves == 0 {
			t.Fatalf("%d players: measured %d bot moves and %d human moves", len(players), botEvents, humanMoves)
		}
		t.Logf("%d players: %d bot moves, each 0 ns after the event before it; %d human moves", len(players), botEvents, humanMoves)
	}
}
