package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestConformance runs every contract of storetest that memstore and the PostgreSQL store pass
// too, each subtest on a file of its own. One process owns a SQLite file, so the contracts of
// several instances (the challenge caps, the server's keys) run on one store as both.
func TestConformance(t *testing.T) {
	one := func(t *testing.T) *sqlite.Store {
		s, _ := openStore(t, sqlite.Options{})
		return s
	}
	two := func(t *testing.T) (*sqlite.Store, *sqlite.Store) {
		s := one(t)
		return s, s
	}
	t.Run("Events", func(t *testing.T) { storetest.Run(t, func(t *testing.T) referee.EventStore { return one(t) }) })
	t.Run("Bindings", func(t *testing.T) {
		storetest.RunBindings(t, func(t *testing.T) storetest.BindingStore {
			s, _ := openStore(t, sqlite.Options{Sync: "normal"})
			return s
		})
	})
	t.Run("ChallengeCaps", func(t *testing.T) {
		storetest.RunChallengeCaps(t, func(t *testing.T) (storetest.BindingStore, storetest.BindingStore) { return two(t) })
	})
	t.Run("Players", func(t *testing.T) { storetest.RunPlayers(t, func(t *testing.T) players.Store { return one(t) }) })
	t.Run("PlayerLookup", func(t *testing.T) {
		storetest.RunPlayerLookup(t, func(t *testing.T) players.Store { return one(t) })
	})
	t.Run("Tickets", func(t *testing.T) { storetest.RunTickets(t, func(t *testing.T) players.Store { return one(t) }) })
	t.Run("Reviews", func(t *testing.T) {
		storetest.RunReviews(t, func(t *testing.T) storetest.ReviewStore { return one(t) })
	})
	t.Run("Seeks", func(t *testing.T) { storetest.RunSeeks(t, func(t *testing.T) seeks.Store { return one(t) }) })
	t.Run("Puzzles", func(t *testing.T) { storetest.RunPuzzles(t, func(t *testing.T) puzzles.Store { return one(t) }) })
	t.Run("Tournaments", func(t *testing.T) {
		storetest.RunTournaments(t, func(t *testing.T) tournaments.Store { return one(t) })
	})
	t.Run("ServerKeys", func(t *testing.T) {
		storetest.RunServerKeys(t, func(t *testing.T) (ratings.KeyStore, ratings.KeyStore) { return two(t) })
	})
}
