package bot_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// positions collects real decisions (views with more than one legal move) from matches of
// expert against greedy at a table.
func positions(tb testing.TB, c bottest.Table, matches int) []domain.SeatView {
	var out []domain.SeatView
	players := []domain.Strategy{bot.NewExpert(2, bot.DefaultRollouts), bot.NewGreedy()}
	for i := 0; i < matches; i++ {
		seed := bottest.Seed(fmt.Sprintf("positions/%s/%d", c, i))
		bottest.Play(tb, bottest.Spec(c, 0), seed, players, func(m *domain.Match) bool {
			if v := m.SeatView(m.Turn()); len(v.LegalMoves) > 1 {
				out = append(out, v)
			}
			return true
		})
	}
	return out
}

// BenchmarkExpertChoose times the expert's real decisions (those with a choice to make), one
// op per decision, cycling through positions from real matches at each table size.
func BenchmarkExpertChoose(b *testing.B) {
	for _, c := range bottest.Tables() {
		b.Run(c.String(), func(b *testing.B) {
			views := positions(b, c, 4)
			x := bot.NewExpert(1, bot.DefaultRollouts)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := x.Choose(context.Background(), views[i%len(views)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGreedyChoose is the cost of a greedy decision, for scale.
func BenchmarkGreedyChoose(b *testing.B) {
	views := positions(b, bottest.Table{Players: 2}, 4)
	g := bot.NewGreedy()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Choose(context.Background(), views[i%len(views)]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExpertDecisionTimes prints the median, tail and maximum of the expert's decision time
// over a few thousand real decisions at each table size. Each decision is timed three times
// (it is deterministic, so each run does the same work): "first" is the first run's wall time,
// "best of 3" the fastest, which leaves out most of the time other processes steal on a shared
// machine. It asserts nothing about speed; run it with ALLFIVES_TIMING=1 -v.
func TestExpertDecisionTimes(t *testing.T) {
	if os.Getenv("ALLFIVES_TIMING") == "" {
		t.Skip("set ALLFIVES_TIMING=1 to measure decision times")
	}
	x := bot.NewExpert(1, bot.DefaultRollouts)
	for _, c := range bottest.Tables() {
		views := positions(t, c, 40)
		var first, best []time.Duration
		for _, v := range views {
			var runs [3]time.Duration
			for i := range runs {
				start := time.Now()
				if _, err := x.Choose(context.Background(), v); err != nil {
					t.Fatal(err)
				}
				runs[i] = time.Since(start)
			}
			first = append(first, runs[0])
			best = append(best, slices.Min(runs[:]))
		}
		t.Logf("%-10s %5d decisions, first:     %s", c, len(views), quantiles(first))
		t.Logf("%-10s %5d decisions, best of 3: %s", c, len(views), quantiles(best))
	}
}

func quantiles(ds []time.Duration) string {
	slices.Sort(ds)
	q := func(p float64) time.Duration { return ds[int(p*float64(len(ds)-1))].Round(time.Microsecond) }
	return fmt.Sprintf("median %v, p90 %v, p99 %v, max %v", q(0.5), q(0.9), q(0.99), q(1))
}
