package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestReviewConformance runs the reviewer.Store contract that memstore and SQLite pass too,
// each subtest on a database of its own.
func TestReviewConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunReviews(t, func(t *testing.T) storetest.ReviewStore {
		s, _ := openStore(t, postgres.Options{})
		return s
	})
}
