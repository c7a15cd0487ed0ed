package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestConformance runs every contract of storetest that memstore and the SQLite store pass
// too, each subtest on a database of its own; the contracts of several instances (the
// challenge caps, the server's keys) on two stores over one database, which hold their counts
// and their key together.
func TestConformance(t *testing.T) {
	pgtest.Require(t)
	one := func(t *testing.T) *postgres.Store {
		s, _ := openStore(t, postgres.Options{})
		return s
	}
	two := func(t *testing.T) (*postgres.Store, *postgres.Store) {
		a, url := openStore(t, postgres.Options{})
		return a, openAt(t, url, postgres.Options{})
	}
	t.Run("Events", func(t *testing.T) { storetest.Run(t, func(t *testing.T) referee.EventStore { return one(t) }) })
	t.Run("Bindings", func(t *testing.T) {
		storetest.RunBindings(t, func(t *testing.T) storetest.BindingStore { return one(t) })
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
