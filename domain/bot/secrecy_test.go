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
	for _, c := range bottest.Shapes() {
		for game := 0; game < 2; game++ {
			seed := bottest.Seed(fmt.Sprintf("inputs/%s/%d", c, game))
			_, log := bottest.Play(t, bottest.Spec(c, 0), seed, []domain.Strategy{NewGreedy(), NewRandom(3)}, func(m *domain.Match, hands domain.HandLog) bool { return m.HandsPlayed() == 1 })
			for n := 2; n <= len(log); n++ {
				a, b, aHands, bHands, ok := bottest.SwapHidden(t, log[:n])
				if !ok || a.Finished() || len(a.LegalMoves(a.Turn())) == 0 {
					continue
				}
				va, vb := a.SeatView(a.Turn(), aHands), b.SeatView(a.Turn(), bHands)
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

// TestBudgetIsFixed checks that the Monte Carlo players run exactly their budget of playouts
// on every decision, a forced move (one legal move: a draw, a pass, a lone fitting tile or the
// highest double's lead) as much as a real choice, so the time a decision takes cannot tell an
// observer whether the seat had another playable tile. It counts playouts, not time, so it is
// deterministic.
func TestBudgetIsFixed(t *testing.T) {
	const budget = 90
	type decider interface {
		decide(ctx context.Context, v domain.SeatView) (domain.Move, int, error)
	}
	players := map[string]decider{NameExpert: NewExpert(4, budget), NamePIMC: NewPIMC(4, budget)}
	forced, chosen := 0, 0
	for _, c := range bottest.Shapes() {
		seed := bottest.Seed("budget/" + c.String())
		bottest.Play(t, bottest.Spec(c, 100), seed, []domain.Strategy{NewGreedy(), NewRandom(2)}, func(m *domain.Match, hands domain.HandLog) bool {
			v := m.SeatView(m.Turn(), hands)
			for name, p := range players {
				mv, n, err := p.decide(context.Background(), v)
				if err != nil || n != budget {
					t.Fatalf("%s ran %d playouts (%v) with %d legal moves, want %d", name, n, err, len(v.LegalMoves), budget)
				}
				if len(v.LegalMoves) == 1 && mv != v.LegalMoves[0].Move() {
					t.Fatalf("%s chose %+v over the only legal move %+v", name, mv, v.LegalMoves[0])
				}
			}
			if len(v.LegalMoves) == 1 {
				forced++
			} else {
				chosen++
			}
			return true
		})
	}
	if forced < 20 || chosen < 20 {
		t.Fatalf("%d forced and %d real decisions; the test wants at least 20 of each", forced, chosen)
	}
	t.Logf("%d forced and %d real decisions, %d playouts each", forced, chosen, budget)
}
