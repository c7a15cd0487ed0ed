package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/repository/sqlite"
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
