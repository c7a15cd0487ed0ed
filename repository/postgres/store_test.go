package postgres_test

import (
	"context"
	"testing"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

var ctx = context.Background()

// openStore opens a store on a new, empty database and closes it when tb ends; it returns the
// database's URL too, for a second store on the same database.
func openStore(tb testing.TB, opts postgres.Options) (*postgres.Store, string) {
	tb.Helper()
	url := pgtest.URL(tb)
	return openAt(tb, url, opts), url
}

// openAt opens another store on the database at url, closed when tb ends.
func openAt(tb testing.TB, url string, opts postgres.Options) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(ctx, url, opts)
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close: %v", err)
		}
	})
	return s
}
