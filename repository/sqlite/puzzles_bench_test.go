package sqlite

import (
	"testing"

	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkNextPuzzle: the selection of GET /api/v1/puzzles/next among 100,000 puzzles, for
// anyone and for a solver with its own matches and 200 attempts among the nearest (p50-ms and
// p99-ms per selection; docs/puzzles.md, "Storage"):
//
//	go test -run '^$' -bench NextPuzzle -benchtime 2000x ./repository/sqlite/
func BenchmarkNextPuzzle(b *testing.B) {
	s := openBenchStore(b)
	storetest.FillPuzzles(b, s, 100_000)
	b.Run("anyone", func(b *testing.B) { storetest.BenchNextPuzzle(b, s, "", 100_000) })
	b.Run("solver", func(b *testing.B) { storetest.BenchNextPuzzle(b, s, "p0", 100_000) })
}
