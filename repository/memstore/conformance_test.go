package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/storetest"
)

// TestConformance runs the contracts of storetest that the SQL stores pass too and that the
// memory store keeps: the events, bound seats and the challenge caps (one store as both
// instances), players, their lookup and tickets, and reviews.
func TestConformance(t *testing.T) {
	t.Run("Events", func(t *testing.T) { storetest.Run(t, func(*testing.T) referee.EventStore { return memstore.New() }) })
	t.Run("Bindings", func(t *testing.T) {
		storetest.RunBindings(t, func(*testing.T) storetest.BindingStore { return memstore.New() })
	})
	t.Run("ChallengeCaps", func(t *testing.T) {
		storetest.RunChallengeCaps(t, func(*testing.T) (storetest.BindingStore, storetest.BindingStore) {
			s := memstore.New()
			return s, s
		})
	})
	t.Run("Players", func(t *testing.T) { storetest.RunPlayers(t, func(*testing.T) players.Store { return memstore.New() }) })
	t.Run("PlayerLookup", func(t *testing.T) {
		storetest.RunPlayerLookup(t, func(*testing.T) players.Store { return memstore.New() })
	})
	t.Run("Tickets", func(t *testing.T) { storetest.RunTickets(t, func(*testing.T) players.Store { return memstore.New() }) })
	t.Run("Reviews", func(t *testing.T) {
		storetest.RunReviews(t, func(*testing.T) storetest.ReviewStore { return memstore.New() })
	})
}
