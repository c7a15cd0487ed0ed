package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/storetest"
)

// TestRacingAppends runs the racing-appends test with half the racers going through a second
// Store with a pool of its own, as a second server instance would, so the race is decided by
// PostgreSQL's row lock.
func TestRacingAppends(t *testing.T) {
	a, url := openStore(t, postgres.Options{})
	b := openAt(t, url, postgres.Options{})
	storetest.RacingAppends(t, a, b)
}
