package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/storetest"
)

func openBenchStore(b *testing.B) *Store {
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), Options{Sync: "normal"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkRatingUpdate: the projection's cost per match, its write included (ns/match).
func BenchmarkRatingUpdate(b *testing.B) {
	storetest.BenchRatingUpdate(b, openBenchStore(b), 200)
}

// BenchmarkLeaderboard: a page of 20 at 100,000 ranked players, the first and one at the
// 90th percentile (ms/page).
func BenchmarkLeaderboard(b *testing.B) {
	s := openBenchStore(b)
	sorted := storetest.FillLeaderboard(b, s, ratings.Format2p, 100_000)
	b.Run("first", func(b *testing.B) { storetest.BenchLeaderboard(b, s, sorted, false) })
	b.Run("deep", func(b *testing.B) { storetest.BenchLeaderboard(b, s, sorted, true) })
}
