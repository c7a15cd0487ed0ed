package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

var ctx = context.Background()

// openStore opens a store on a new file in t's temp dir and closes it when t ends.
func openStore(tb testing.TB, opts sqlite.Options) (*sqlite.Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "allfives.db")
	s, err := sqlite.Open(ctx, path, opts)
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close: %v", err)
		}
	})
	return s, path
}

// playedMatches stores n matches with ids prefix0, prefix1, ..., a second apart, each
// with up to moves random legal moves appended one by one.
func playedMatches(tb testing.TB, s *sqlite.Store, prefix string, n, moves int) []*storetest.Fixture {
	tb.Helper()
	out := make([]*storetest.Fixture, n)
	for i := range out {
		f := storetest.NewFixture(tb, fmt.Sprintf("%s%d", prefix, i), storetest.Base.Add(time.Duration(i)*time.Second), 0)
		if err := f.Create(ctx, s); err != nil {
			tb.Fatal(err)
		}
		f.PlayToEnd(tb, s, moves)
		out[i] = f
	}
	return out
}

// TestConformance runs the EventStore contract that memstore passes too.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) referee.EventStore {
		s, _ := openStore(t, sqlite.Options{})
		return s
	})
}
