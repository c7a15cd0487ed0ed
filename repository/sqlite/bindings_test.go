package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestBindingsConformance runs the contracts of bound seats, a player's matches and
// rematches that memstore and the PostgreSQL store pass too.
func TestBindingsConformance(t *testing.T) {
	storetest.RunBindings(t, func(t *testing.T) storetest.BindingStore {
		s, _ := openStore(t, sqlite.Options{Sync: "normal"})
		return s
	})
}

// TestChallengeCapsConformance: one process owns a SQLite file, so its two handles are one
// store.
func TestChallengeCapsConformance(t *testing.T) {
	storetest.RunChallengeCaps(t, func(t *testing.T) (storetest.BindingStore, storetest.BindingStore) {
		s, _ := openStore(t, sqlite.Options{})
		return s, s
	})
}
