package bot

import (
	"context"
	"fmt"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// BenchmarkLevelLadder plays each level against the one below it (level-1 against random), in
// duplicate two-player matches to 250 points, and reports the stronger one's win rate with its
// 95% Wilson interval (docs/bots.md, "Levels"). One op is one deal sequence played from both
// seats, so
//
//	nice -n 19 go test ./domain/bot -run '^$' -bench LevelLadder -benchtime 200x -cpu 1
//
// plays 400 matches per pair. -bench 'LevelLadder/level-5' plays one pair.
func BenchmarkLevelLadder(b *testing.B) { levelLadder(b, "ladder/", 0) }

// BenchmarkLevelLadder100 is BenchmarkLevelLadder in matches to 100 points, where a hand's luck
// weighs more and the levels stand closer (docs/bots.md, "Levels"), on deals of its own:
//
//	nice -n 19 go test ./domain/bot -run '^$' -bench LevelLadder100 -benchtime 200x -cpu 1
func BenchmarkLevelLadder100(b *testing.B) { levelLadder(b, "ladder100/", 100) }

// levelLadder plays every adjacent pair of levels to target points on the deals named by
// prefix and the pair.
func levelLadder(b *testing.B, prefix string, target int) {
	for n := 1; n <= Levels; n++ {
		below, name := chooser(NewRandom(1)), NameRandom
		if n > 1 {
			below, name = NewLevel(1, n-1, DefaultRollouts), LevelName(n-1)
		}
		label := fmt.Sprintf("%s-vs-%s", LevelName(n), name)
		b.Run(label, func(b *testing.B) {
			duelTo(b, prefix+label, NewLevel(1, n, DefaultRollouts), below, b.N, target).report(b, label)
		})
	}
}

// TestLevelsAreDeterministic plays whole matches of every level against its neighbour twice,
// with levels built afresh from the same seed, and checks that every move is the same; a
// different seed must change some move, or the seed would play no part.
func TestLevelsAreDeterministic(t *testing.T) {
	const budget = 120
	moves := func(seed uint64, n int) []domain.Move {
		var out []domain.Move
		players := []domain.Strategy{NewLevel(seed, n, budget), NewLevel(seed, n%Levels+1, budget)}
		bottest.Play(t, bottest.Spec(bottest.Shape{Players: 2}, 100), bottest.Seed(fmt.Sprint("levels/", n)), players, func(m *domain.Match, hands domain.HandLog) bool {
			mv, err := players[m.Turn()%2].Choose(context.Background(), m.SeatView(m.Turn(), hands))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, mv)
			return true
		})
		return out
	}
	differ := 0
	for n := 1; n <= Levels; n++ {
		a, b, c := moves(7, n), moves(7, n), moves(8, n)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%s played differently under the same seed", LevelName(n))
		}
		if fmt.Sprint(a) != fmt.Sprint(c) {
			differ++
		}
	}
	if differ < Levels/2 {
		t.Fatalf("only %d of %d levels played differently under another seed", differ, Levels)
	}
}

// TestLevelsSpendTheirBudget: every level runs its own budget of playouts on every decision, a
// forced one included (as TestBudgetIsFixed checks for the expert), and the budgets rise with
// the level, level-8 spending the expert's.
func TestLevelsSpendTheirBudget(t *testing.T) {
	const rollouts = 800
	prev := 0
	for n := 1; n <= Levels; n++ {
		l := NewLevel(3, n, rollouts)
		want := l.expert.rollouts
		if want < prev || (n == Levels && want != rollouts) {
			t.Fatalf("%s: a budget of %d after %d", LevelName(n), want, prev)
		}
		prev = want
		steps := 0
		bottest.Play(t, bottest.Spec(bottest.Shape{Players: 3}, 60), bottest.Seed("level-budget"), []domain.Strategy{NewGreedy()}, func(m *domain.Match, hands domain.HandLog) bool {
			v := m.SeatView(m.Turn(), hands)
			mv, got, err := l.decide(context.Background(), v)
			if err != nil || got != want || !legal(mv, v.LegalMoves) {
				t.Fatalf("%s: %d playouts of %d, move %+v (%v)", LevelName(n), got, want, mv, err)
			}
			steps++
			return steps < 30
		})
	}
}

func legal(mv domain.Move, moves []domain.LegalMove) bool {
	for _, l := range moves {
		if l.Move() == mv {
			return true
		}
	}
	return false
}

// TestLevelNoiseIsInPoints: a level's noise is in points at every table: a level that values
// the match (equity) spreads its values by its noise times what a point is worth there, one
// that values points by its noise alone; each table has a column of its own, and every level
// below the expert errs at every table.
func TestLevelNoiseIsInPoints(t *testing.T) {
	for kind, shape := range bottest.Shapes() {
		table, err := domain.NewTable(shape.Players, shape.Partnerships)
		if err != nil {
			t.Fatal(err)
		}
		if got := tableKind(table); got != kind {
			t.Fatalf("%s is table kind %d, want %d", shape, got, kind)
		}
		scores := make([]int, table.Sides())
		scores[0] = 40
		v := domain.SeatView{Table: table, Seat: 0, Scores: scores, Target: 200}
		for n := 1; n <= Levels; n++ {
			l := NewLevel(1, n, DefaultRollouts)
			noise, want := levels[n-1].noise[kind], levels[n-1].noise[kind]
			if o := l.expert.opts; o.equity && !o.noMatch {
				want *= equitySlope(scores, 0, 200)
			}
			if got := l.temperature(v); got != want {
				t.Errorf("%s at %s: temperature %v, want %v", LevelName(n), shape, got, want)
			}
			if (noise == 0) != (n == Levels) {
				t.Errorf("%s at %s: noise %v", LevelName(n), shape, noise)
			}
		}
	}
}
