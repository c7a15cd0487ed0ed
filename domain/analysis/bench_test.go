package analysis_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/bot"
)

// BenchmarkReviewMatch2 reviews a whole two-player match to 250 (expert against greedy) with
// the default options, par included, one op per review. judge-ms is the judgement of the
// decisions alone (a review without par) and par-ms the rest, both in CPU time, as is cpu-ms
// for the whole review: other processes on a shared machine do not inflate it (docs/review.md,
// "Benchmarks").
func BenchmarkReviewMatch2(b *testing.B) {
	benchMatch(b, []chooser{bot.NewExpert(1, bot.DefaultRollouts), bot.NewGreedy()}, false)
}

// BenchmarkReviewMatch4 is BenchmarkReviewMatch2 for a four-player partnership match to 250,
// experts partnered against greedy players.
func BenchmarkReviewMatch4(b *testing.B) {
	x := bot.NewExpert(1, bot.DefaultRollouts)
	benchMatch(b, []chooser{x, bot.NewGreedy(), x, bot.NewGreedy()}, true)
}

func benchMatch(b *testing.B, players []chooser, partners bool) {
	events := play(b, players, partners, 0, seedOf("bench/review"))
	var judged, cpu time.Duration
	decisions := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cpu0 := cpuTime(b)
		res := mustReview(b, events, analysis.Options{})
		cpu += cpuTime(b) - cpu0
		decisions = len(res.Decisions)
		b.StopTimer()
		cpu0 = cpuTime(b)
		mustReview(b, events, analysis.Options{ParRuns: -1})
		judged += cpuTime(b) - cpu0
		b.StartTimer()
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(decisions), "decisions")
	b.ReportMetric(float64(judged.Milliseconds())/n, "judge-ms")
	b.ReportMetric(float64((cpu-judged).Milliseconds())/n, "par-ms")
	b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms")
}

func mustReview(tb testing.TB, events []domain.Event, opts analysis.Options) *analysis.Result {
	tb.Helper()
	res, err := analysis.Review(context.Background(), events, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// cpuTime is the CPU time the process has used so far, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
