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
