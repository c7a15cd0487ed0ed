package bot

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// TestHiddenTilesDoNotChangeInputs goes further than TestHiddenTilesDoNotChangeDecisions in
// bot_test: after a hidden tile is swapped between an opponent's hand and the boneyard, what
// the expert infers from the view (its knowledge) and the value each Monte Carlo player puts
// on every legal move must be identical, bit for bit, not merely the move chosen.
func TestHiddenTilesDoNotChangeInputs(t *testing.T) {
	type evaluator interface {
		evaluate(ctx context.Context, v domain.SeatView) ([]int, []float64, int, error)
	}
	players := map[string]evaluator{NameExpert: NewExpert(6, 120), NamePIMC: NewPIMC(6, 120)}
	checked := 0
	for _, c := range bottest.Tables() {
		for game := 0; game < 2; game++ {
			seed := bottest.Seed(fmt.Sprintf("inputs/%s/%d", c, game))
			_, log := bottest.Play(t, bottest.Spec(c, 0), seed, []domain.Strategy{NewGreedy(), NewRandom(3)}, func(m *domain.Match) bool { return m.HandsPlayed() == 1 })
			for n := 2; n <= len(log); n++ {
				a, b, ok := bottest.SwapHidden(t, log[:n])
				if !ok || a.Finished() || len(a.LegalMoves(a.Turn())) == 0 {
					continue
				}
				va, vb := a.SeatView(a.Turn()), b.SeatView(a.Turn())
				if !reflect.DeepEqual(read(va), read(vb)) {
					t.Fatal("the expert's knowledge changed with a hidden tile")
				}
				for name, p := range players {
					oa, xa, _, errA := p.evaluate(context.Background(), va)
					ob, xb, _, errB := p.evaluate(context.Background(), vb)
					if errA != nil || errB != nil || !reflect.DeepEqual(oa, ob) || !reflect.DeepEqual(xa, xb) {
						t.Fatalf("%s: values %v (%v) vs %v (%v)", name, xa, errA, xb, errB)
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
