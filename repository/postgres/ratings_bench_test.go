package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

func openRatingsBench(b *testing.B) *postgres.Store {
	s, err := postgres.Open(ctx, pgtest.URL(b), postgres.Options{MaxConns: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkRatingUpdate: the projection's cost per match, its write included (ns/match).
func BenchmarkRatingUpdate(b *testing.B) {
	storetest.BenchRatingUpdate(b, openRatingsBench(b), 200)
}

// BenchmarkLeaderboard: a page of 20 at 100,000 ranked players, the first and one at the
// 90th percentile (ms/page).
func BenchmarkLeaderboard(b *testing.B) {
	s := openRatingsBench(b)
	sorted := storetest.FillLeaderboard(b, s, ratings.Format2p, 100_000)
	if _, err := s.DB().Exec(`ANALYZE ratings`); err != nil {
		b.Fatal(err)
	}
	b.Run("first", func(b *testing.B) { storetest.BenchLeaderboard(b, s, sorted, false) })
	b.Run("deep", func(b *testing.B) { storetest.BenchLeaderboard(b, s, sorted, true) })
}
