package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/storetest"
)

// TestReviewConformance runs the reviewer.Store contract that the SQL stores pass too.
func TestReviewConformance(t *testing.T) {
	storetest.RunReviews(t, func(*testing.T) storetest.ReviewStore { return memstore.New() })
}
