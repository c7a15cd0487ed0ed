package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkSeekLatency: a compatible seek matched among 1,000 searching (docs/matchmaking.md).
func BenchmarkSeekLatency(b *testing.B) {
	s, _ := openStore(b, postgres.Options{})
	storetest.BenchSeekLatency(b, s)
}
