package bot_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// positions collects at least n real decisions (views with more than one legal move) from
// matches of pimc against greedy at a table, the same ones on every call.
func positions(tb testing.TB, c bottest.Shape, n int) []domain.SeatView {
	return collect(tb, c, n, func(v domain.SeatView) bool { return len(v.LegalMoves) > 1 })
}

// collect gathers at least n views that keep accepts.
func collect(tb testing.TB, c bottest.Shape, n int, keep func(v domain.SeatView) bool) []domain.SeatView {
	var out []domain.SeatView
	players := []domain.Strategy{bot.NewPIMC(2, bot.DefaultPlayouts), bot.NewGreedy()}
	for i := 0; len(out) < n; i++ {
		seed := bottest.Seed(fmt.Sprintf("positions/%s/%d", c, i))
		bottest.Play(tb, bottest.Spec(c, 0), seed, players, func(m *domain.Match, hands domain.HandLog) bool {
			if v := m.SeatView(m.Turn(), hands); keep(v) {
				out = append(out, v)
			}
			return true
		})
	}
	return out
}

// BenchmarkExpertForcedVsChoice times the expert's forced moves (one legal move) and its real
// choices at two players, while the boneyard still hides tiles (once it is empty a two-player
// hand has no secret left): both spend the same budget of playouts, so the two should take
// about as long. What remains is the cost of the playouts themselves, which depends on the
// position more than on the choice.
func BenchmarkExpertForcedVsChoice(b *testing.B) {
	forcedVsChoice(b, bot.NewExpert(1, bot.DefaultRollouts))
}

// BenchmarkPIMCForcedVsChoice is BenchmarkExpertForcedVsChoice for pimc, which also spends its
// whole budget on a forced move; its figures chose pimc's floor (PIMCMinDecision).
func BenchmarkPIMCForcedVsChoice(b *testing.B) {
	forcedVsChoice(b, bot.NewPIMC(1, bot.DefaultPlayouts))
}

// forcedVsChoice times s's forced moves and real choices at two players while the boneyard
// still hides tiles, and reports the quantiles of each.
func forcedVsChoice(b *testing.B, s domain.Strategy) {
	for _, forced := range []bool{true, false} {
		b.Run(map[bool]string{true: "forced", false: "choice"}[forced], func(b *testing.B) {
			views := collect(b, bottest.Shape{Players: 2}, b.N, func(v domain.SeatView) bool {
				return v.Boneyard > 0 && (len(v.LegalMoves) == 1) == forced
			})
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if _, err := s.Choose(context.Background(), views[i]); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			reportQuantiles(b, times)
		})
	}
}

// BenchmarkExpertChoose times the expert's real decisions (those with a choice to make), one
// op per decision, on positions from real matches at each table size. Each position is decided
// three times in a row; the expert is deterministic, so each time does the same work. Besides
// the mean it reports the median, 99th percentile and slowest of each position's fastest time,
// which leaves out most of the time other processes steal on a shared machine. The figures in
// (docs/bots.md, "Cost") come from -benchtime 8000x -cpu 1 (about 2,700 positions per table size).
func BenchmarkExpertChoose(b *testing.B) {
	choose(b, func() domain.Strategy { return bot.NewExpert(1, bot.DefaultRollouts) })
}

// BenchmarkPIMCChoose is BenchmarkExpertChoose for pimc.
func BenchmarkPIMCChoose(b *testing.B) {
	choose(b, func() domain.Strategy { return bot.NewPIMC(1, bot.DefaultPlayouts) })
}

// choose times the real decisions of the strategy newStrategy returns, as BenchmarkExpertChoose
// says.
func choose(b *testing.B, newStrategy func() domain.Strategy) {
	const tries = 3
	for _, c := range bottest.Shapes() {
		b.Run(c.String(), func(b *testing.B) {
			views := positions(b, c, (b.N+tries-1)/tries)
			x := newStrategy()
			fastest := make([]time.Duration, 0, len(views))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if _, err := x.Choose(context.Background(), views[i/tries]); err != nil {
					b.Fatal(err)
				}
				d := time.Since(start)
				if i%tries == 0 {
					fastest = append(fastest, d)
				} else {
					fastest[len(fastest)-1] = min(fastest[len(fastest)-1], d)
				}
			}
			b.StopTimer()
			reportQuantiles(b, fastest)
		})
	}
}

// reportQuantiles adds the median, 99th percentile and maximum of ds, in milliseconds, to the
// benchmark's line.
func reportQuantiles(b *testing.B, ds []time.Duration) {
	slices.Sort(ds)
	for _, q := range []struct {
		unit string
		p    float64
	}{{"p50-ms", 0.5}, {"p99-ms", 0.99}, {"max-ms", 1}} {
		d := ds[int(q.p*float64(len(ds)-1))]
		b.ReportMetric(float64(d)/float64(time.Millisecond), q.unit)
	}
}

// BenchmarkGreedyChoose is the cost of a greedy decision, for scale.
func BenchmarkGreedyChoose(b *testing.B) {
	views := positions(b, bottest.Shape{Players: 2}, 200)
	g := bot.NewGreedy()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Choose(context.Background(), views[i%len(views)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExpertMatch plays whole two-player matches of the expert against itself, one op per
// match, forced moves included (each costs a full decision): the "whole match"
// figure of (docs/bots.md, "Cost").
func BenchmarkExpertMatch(b *testing.B) {
	x := bot.NewExpert(1, bot.DefaultRollouts)
	for i := 0; i < b.N; i++ {
		seed := bottest.Seed(fmt.Sprintf("match/%d", i))
		bottest.Play(b, bottest.Spec(bottest.Shape{Players: 2}, 0), seed, []domain.Strategy{x}, func(*domain.Match, domain.HandLog) bool { return true })
	}
}
