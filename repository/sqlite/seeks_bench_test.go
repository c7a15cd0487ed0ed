package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkSeekLatency: a compatible seek matched among 1,000 searching (docs/matchmaking.md).
func BenchmarkSeekLatency(b *testing.B) {
	s, _ := openStore(b, sqlite.Options{Sync: "normal"})
	storetest.BenchSeekLatency(b, s)
}
