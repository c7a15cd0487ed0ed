package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestRacingAppends runs the racing-appends test with half the racers going through a second
// Store on the same file, as a second process would, so the race is decided by SQLite's write
// lock and busy_timeout, not only by the writer pool.
func TestRacingAppends(t *testing.T) {
	a, path := openStore(t, sqlite.Options{})
	b, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	storetest.RacingAppends(t, a, b)
}
