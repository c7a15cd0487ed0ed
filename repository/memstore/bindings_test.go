package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/storetest"
)

// TestBindingsConformance runs the contracts of bound seats, a player's matches and
// rematches that the SQL stores pass too.
func TestBindingsConformance(t *testing.T) {
	storetest.RunBindings(t, func(*testing.T) storetest.BindingStore { return memstore.New() })
}

// TestChallengeCapsConformance: the memory store counts as the SQL stores do.
func TestChallengeCapsConformance(t *testing.T) {
	storetest.RunChallengeCaps(t, func(t *testing.T) (storetest.BindingStore, storetest.BindingStore) {
		s := memstore.New()
		return s, s
	})
}
