package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestReviewConformance runs the reviewer.Store contract that memstore and PostgreSQL pass too.
func TestReviewConformance(t *testing.T) {
	storetest.RunReviews(t, func(t *testing.T) storetest.ReviewStore {
		s, _ := openStore(t, sqlite.Options{})
		return s
	})
}
