package domain_test

import (
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

// TestSealedViewerReadsAFinishedMatchAsLive: given a finished match, a sealed seat sees only
// its own tiles in every hand.started, no other seat's draws and no seed; a sealed spectator
// sees no hand in the view; Opened does not undo a seal; the unsealed viewer sees everything.
func TestSealedViewerReadsAFinishedMatchAsLive(t *testing.T) {
	spec := matchtest.Spec(matchtest.Shapes[0], 100)
	log := matchtest.PlayOut(t, spec, matchtest.Seed(3), func(m []domain.LegalMove) domain.LegalMove { return m[0] }, 0)
	m, err := domain.Rebuild("m", log)
	if err != nil || !m.Finished() {
		t.Fatalf("rebuild: %v, finished %v", err, m.Finished())
	}
	seat := domain.SeatViewer(0).Sealed().Opened()
	for _, e := range seat.RedactAll(log, true) {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			if d.Hands[1] != nil || d.Boneyard != nil || d.Hands[0] == nil {
				t.Fatalf("sealed seat 0 sees hand.started %+v", d)
			}
		case domain.TileDrawn:
			if d.Seat == 1 && d.Tile != nil {
				t.Fatalf("sealed seat 0 sees seat 1's draw %v", *d.Tile)
			}
		case domain.MatchEnded:
			if d.Seed != "" {
				t.Fatalf("sealed seat 0 sees the seed")
			}
		}
	}
	if v := m.View(seat); v.Hand != nil && v.Hand.Hands != nil {
		t.Fatalf("sealed seat's view opens the hands: %v", v.Hand.Hands)
	}
	if v := m.View(domain.Spectator().Sealed()); v.Hand != nil || v.You != nil {
		t.Fatalf("sealed spectator sees the hand: %+v", v.Hand)
	}
	open := domain.Spectator().RedactAll(log, true)
	if me, ok := open[len(open)-1].Data.(domain.MatchEnded); !ok || me.Seed == "" {
		t.Fatalf("the unsealed record hides its seed: %+v", open[len(open)-1])
	}
}
