package bot

import (
	"context"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

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
	for _, c := range bottest.Tables() {
		seed := bottest.Seed("budget/" + c.String())
		bottest.Play(t, bottest.Spec(c, 100), seed, []domain.Strategy{NewGreedy(), NewRandom(2)}, func(m *domain.Match) bool {
			v := m.SeatView(m.Turn())
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
