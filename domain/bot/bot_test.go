package bot_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/simulate"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// quick is the strategies with small Monte Carlo budgets, so the tests can afford thousands
// of matches (and many under the race detector); the code paths are the same at any budget.
func quick(seed uint64) map[string]domain.Strategy {
	s := bot.Strategies(seed)
	s[bot.NameExpert] = bot.NewExpert(seed, 60)
	s[bot.NamePIMC] = bot.NewPIMC(seed, 60)
	return s
}

// TestBotsOnlyChooseLegalMoves plays every table size with every strategy, in two lineups so
// that each one sits at the two-player table too. The tournament fails on the first error or
// move not among the view's legal moves, so passing means every decision of every match was
// legal. ALLFIVES_BIG=1 plays 8,000 (1,000 per table and lineup).
func TestBotsOnlyChooseLegalMoves(t *testing.T) {
	matches := bottest.Size(24, 1000)
	lineups := [][]string{
		{bot.NameExpert, bot.NamePIMC, bot.NameGreedy, bot.NameRandom},
		{bot.NameRandom, bot.NameGreedy, bot.NamePIMC, bot.NameExpert},
	}
	for _, c := range bottest.Shapes() {
		for i, bots := range lineups {
			t.Run(fmt.Sprintf("%s/%d", c, i), func(t *testing.T) {
				rep, err := simulate.Run(context.Background(), simulate.Config{
					Matches: matches, Players: c.Players, Partnerships: c.Partnerships,
					Bots: bots, Seed: []byte(fmt.Sprintf("legal/%s/%d", c, i)),
					Duplicate: true, Workers: 2, Strategies: quick(11),
				})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Matches < matches {
					t.Fatalf("played %d matches, want %d", rep.Matches, matches)
				}
			})
		}
	}
}

// TestGreedyBeatsRandom is the CI-sized strength check; the full claim (2,000 matches, above
// 90%) is run with `allfives simulate` and recorded in (docs/bots.md, "Strength").
func TestGreedyBeatsRandom(t *testing.T) {
	assertBeats(t, bot.NameGreedy, bot.NameRandom, 200, 0.8, quick(5))
}

// TestExpertBeatsGreedy is a small, cheap version of the expert's claim: even at a twentieth
// of its budget it must clearly beat greedy.
func TestExpertBeatsGreedy(t *testing.T) {
	s := bot.Strategies(5)
	s[bot.NameExpert] = bot.NewExpert(5, 120)
	assertBeats(t, bot.NameExpert, bot.NameGreedy, 40, 0.7, s)
}

func assertBeats(t *testing.T, a, b string, matches int, rate float64, s map[string]domain.Strategy) {
	t.Helper()
	rep, err := simulate.Run(context.Background(), simulate.Config{
		Matches: matches, Players: 2, Bots: []string{a, b}, Seed: []byte("strength"),
		Duplicate: true, Workers: 2, Strategies: s,
	})
	if err != nil {
		t.Fatal(err)
	}
	row := rep.Rows[0]
	if row.Strategy != a || row.WinRate() < rate {
		t.Fatalf("%s won %d of %d against %s (%.1f%%), want at least %.0f%%", row.Strategy, row.Wins, row.Matches, b, 100*row.WinRate(), 100*rate)
	}
}

// TestForcedMoveNeedsNoSearch hands random and greedy a view with one legal move and nothing
// else: any look at the table, line or history would fail, so the move must come straight
// back. They are cheap whatever the view, so answering a forced move at once reveals nothing;
// the Monte Carlo players spend their full budget instead (TestBudgetIsFixed).
func TestForcedMoveNeedsNoSearch(t *testing.T) {
	for _, s := range []domain.Strategy{bot.NewRandom(1), bot.NewGreedy()} {
		for _, want := range []domain.Move{domain.Draw(), domain.Pass()} {
			got, err := s.Choose(context.Background(), domain.SeatView{LegalMoves: []domain.LegalMove{{Action: want.Action}}})
			if err != nil || got != want {
				t.Errorf("%T: got %+v, %v; want %+v", s, got, err, want)
			}
		}
	}
	for name, s := range bot.Strategies(1) {
		if _, err := s.Choose(context.Background(), domain.SeatView{}); err == nil {
			t.Errorf("%s: chose a move from a view with no legal moves", name)
		}
	}
}

// TestStrategiesAreRepeatable asks each strategy twice about the same views: a bot's choice is
// a function of its seed and the view.
func TestStrategiesAreRepeatable(t *testing.T) {
	a, b := quick(9), quick(9)
	steps := 0
	bottest.Play(t, bottest.Spec(bottest.Shape{Players: 2}, 0), bottest.Seed("repeat"), []domain.Strategy{a[bot.NameRandom]}, func(m *domain.Match, hands domain.HandLog) bool {
		v := m.SeatView(m.Turn(), hands)
		for _, name := range bot.Names() {
			x, _ := a[name].Choose(context.Background(), v)
			y, _ := b[name].Choose(context.Background(), v)
			if x != y {
				t.Fatalf("%s chose %+v then %+v for the same view", name, x, y)
			}
		}
		steps++
		return steps < 40
	})
	if steps < 40 {
		t.Fatalf("the match ended after %d moves; the test wants 40 views", steps)
	}
}

// legalIn reports whether mv is one of the listed legal moves.
func legalIn(mv domain.Move, legal []domain.LegalMove) bool {
	return slices.ContainsFunc(legal, func(l domain.LegalMove) bool { return l.Move() == mv })
}
