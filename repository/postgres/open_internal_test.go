package postgres

import (
	"context"
	"testing"

	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// openFresh opens a store with opts on a database of its own (pgtest.URL, which skips or fails
// without PostgreSQL), closed when the test ends: the package's own tests reach its unexported
// parts through it.
func openFresh(tb testing.TB, opts Options) *Store {
	tb.Helper()
	s, err := Open(context.Background(), pgtest.URL(tb), opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
