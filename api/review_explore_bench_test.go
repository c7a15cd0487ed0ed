package api_test

import (
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/reviews"
)

// BenchmarkExplore answers GET .../analysis through the router on SQLite with the review's
// default budgets (docs/review.md, "Explore"), one decision per op, the match's decisions in
// turn: stored reads them from the match's done review, computed judges each on the request's
// path (no review stored). p50-ms is the median answer's wall time.
//
//	go test -run '^$' -bench Explore -benchtime 200x ./api/
func BenchmarkExplore(b *testing.B) {
	for _, stored := range []bool{true, false} {
		name := map[bool]string{true: "stored", false: "computed"}[stored]
		b.Run(name, func(b *testing.B) {
			h := newHarness(b, apitest.WithStore(sqliteReviewStore(b)), apitest.WithoutPlayers(),
				apitest.Reviews(func(c *reviews.Config) { c.Options = analysis.Options{} }))
			tb := h.finishedMatch(seed1)
			steps := decisionsOf(b, tb)
			if stored {
				tb.askReview(http.StatusAccepted)
				waitReviews(b, h.Reviews)
				tb.getReview(http.StatusOK)
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				r := h.do(http.MethodGet, tb.path("/analysis?step="+strconv.Itoa(steps[i%len(steps)])), nil)
				took = append(took, time.Since(start))
				if r.status != http.StatusOK {
					b.Fatalf("explore: %d %s", r.status, r.body)
				}
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
		})
	}
}

// decisionsOf is the seqs of tb's decisions, read from a review on a small budget computed
// apart (the seqs do not depend on the budget).
func decisionsOf(b *testing.B, tb *table) []int {
	b.Helper()
	res, err := analysis.Review(b.Context(), tb.fullLog(), apitest.SmallReview)
	if err != nil {
		b.Fatal(err)
	}
	var out []int
	for _, d := range res.Decisions {
		out = append(out, d.Seq)
	}
	if len(out) == 0 {
		b.Fatal("no decisions")
	}
	return out
}
