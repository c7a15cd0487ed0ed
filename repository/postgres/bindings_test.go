package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestBindingsConformance runs the contracts of bound seats, a player's matches and
// rematches that memstore and the SQLite store pass too, each subtest on a database of its
// own.
func TestBindingsConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunBindings(t, func(t *testing.T) storetest.BindingStore {
		s, _ := openStore(t, postgres.Options{})
		return s
	})
}

// TestChallengeCapsConformance: two instances on one database hold the cap together.
func TestChallengeCapsConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunChallengeCaps(t, func(t *testing.T) (storetest.BindingStore, storetest.BindingStore) {
		a, url := openStore(t, postgres.Options{})
		return a, openAt(t, url, postgres.Options{})
	})
}
