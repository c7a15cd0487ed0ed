package storetest

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/openskill"
)

// FillPuzzles stores n puzzles, two players' matches each (players "p0".."p999"), their mu
// spread around the new rating (normal, sigma 5), in batches of 1,000; the solver "p0" has
// attempted the 200 puzzles nearest 25, so its search skips them as a practised solver's does.
func FillPuzzles(b *testing.B, s puzzles.Store, n int) {
	b.Helper()
	rng := rand.New(rand.NewPCG(17, 18))
	var batch []puzzles.Puzzle
	var near []puzzles.Puzzle
	for i := range n {
		a, c := fmt.Sprint("p", rng.IntN(1000)), fmt.Sprint("p", rng.IntN(1000))
		p := PuzzleFixture(fmt.Sprintf("pz%07d", i), fmt.Sprintf("m%06d", i/10), i%10+1, 25+5*rng.NormFloat64(), a, a, c)
		batch = append(batch, p)
		if p.Rating.Mu > 24.9 && p.Rating.Mu < 25.1 {
			near = append(near, p)
		}
		if len(batch) == 1000 || i == n-1 {
			if err := s.PutPuzzles(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	keep := func(sv, pz openskill.Rating, _ bool) (openskill.Rating, openskill.Rating, error) { return sv, pz, nil }
	for _, p := range near[:min(200, len(near))] {
		if _, _, err := s.RecordAttempt(ctx, puzzles.Attempt{Puzzle: p.ID, Player: "p0", At: puzzleEpoch}, openskill.Default().New(), keep); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchNextPuzzle is GET /puzzles/next's store work: the puzzle nearest a solver's mu (25,
// give or take the service's noise of 1) that the solver may be offered, for a solver in a
// thousandth of the matches who attempted the 200 nearest. It reports the p50 and p99 of one
// selection in ms. n is how many FillPuzzles stored: the ids to start from are theirs.
func BenchNextPuzzle(b *testing.B, s puzzles.Store, player string, n int) {
	rng := rand.New(rand.NewPCG(19, 20))
	took := make([]time.Duration, 0, b.N)
	runtime.GC() // the fill's garbage is collected before, not during, the timings
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, ok, err := s.NextPuzzle(ctx, player, 25+(2*rng.Float64()-1), fmt.Sprintf("pz%07d", rng.IntN(n))); err != nil || !ok {
			b.Fatalf("next: ok %v err %v", ok, err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(took)
	ms := func(q float64) float64 {
		return float64(took[min(len(took)-1, int(q*float64(len(took))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}
