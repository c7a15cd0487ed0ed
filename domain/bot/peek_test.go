package bot_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// A strategy receives a domain.SeatView: the seat's own hand, the line, scores, counts, legal
// moves and this hand's history as the seat may see it. It never receives the Match, so the
// types already keep hidden tiles out of reach. These tests check the rest: that the views
// handed to bots carry no hidden tile, and that changing only hidden tiles changes nothing a
// bot decides.

// TestViewsCarryNoHiddenTiles walks every view of every seat through whole matches and checks
// that no other hand, no boneyard order and no other seat's drawn tile is in it.
func TestViewsCarryNoHiddenTiles(t *testing.T) {
	for _, c := range bottest.Shapes() {
		m, _ := play(t, c, "views/"+c.String(), func(m *domain.Match, hands domain.HandLog) bool {
			for s := 0; s < c.Players; s++ {
				checkRedacted(t, m.SeatView(s, hands))
			}
			return true
		})
		if !m.Finished() {
			t.Fatalf("%s: match did not finish", c)
		}
	}
}

// checkRedacted fails the test when v's history shows a tile hidden from v's seat.
func checkRedacted(t *testing.T, v domain.SeatView) {
	t.Helper()
	for _, e := range v.History {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			for s, h := range d.Hands {
				if s != v.Seat && h != nil {
					t.Fatalf("seat %d's view shows seat %d's hand", v.Seat, s)
				}
			}
			if d.Boneyard != nil {
				t.Fatalf("seat %d's view shows the boneyard", v.Seat)
			}
		case domain.TileDrawn:
			if d.Seat != v.Seat && d.Tile != nil {
				t.Fatalf("seat %d's view shows seat %d's draw", v.Seat, d.Seat)
			}
		}
	}
}

// TestHiddenTilesDoNotChangeDecisions takes positions from real matches, swaps a tile still
// hidden in an opponent's hand with one still in the boneyard, and checks that the seat's view
// is identical while the hidden hands differ, and that every strategy decides the same.
func TestHiddenTilesDoNotChangeDecisions(t *testing.T) {
	strategies := quick(3)
	checked := 0
	for _, c := range bottest.Shapes() {
		for game := 0; game < 3; game++ {
			_, log := play(t, c, fmt.Sprintf("hidden/%s/%d", c, game), func(m *domain.Match, hands domain.HandLog) bool { return m.HandsPlayed() == 1 })
			for n := 2; n <= len(log); n++ {
				a, b, hands, swappedHands, ok := bottest.SwapHidden(t, log[:n])
				if !ok || a.Finished() || len(a.LegalMoves(a.Turn())) < 2 {
					continue
				}
				seat := a.Turn()
				va, vb := a.SeatView(seat, hands), b.SeatView(seat, swappedHands)
				if !reflect.DeepEqual(va, vb) {
					t.Fatalf("views differ after swapping hidden tiles:\n%+v\n%+v", va, vb)
				}
				for _, name := range bot.Names() {
					x, errA := strategies[name].Choose(context.Background(), va)
					y, errB := strategies[name].Choose(context.Background(), vb)
					if errA != nil || errB != nil || x != y || !legalIn(x, va.LegalMoves) {
						t.Fatalf("%s: %+v (%v) vs %+v (%v)", name, x, errA, y, errB)
					}
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d positions had a hidden tile to swap", checked)
	}
}

// play runs a match of greedy and random bots, calling visit before each move until it says
// stop, and returns the match and its full log.
func play(t *testing.T, c bottest.Shape, seedText string, visit func(m *domain.Match, hands domain.HandLog) bool) (*domain.Match, []domain.Event) {
	t.Helper()
	players := []domain.Strategy{bot.NewGreedy(), bot.NewRandom(1)}
	return bottest.Play(t, bottest.Spec(c, 0), bottest.Seed(seedText), players, visit)
}
