package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/storetest"
)

// TestPlayerLookupConformance runs the players.NameStore contract on this store.
func TestPlayerLookupConformance(t *testing.T) {
	storetest.RunPlayerLookup(t, func(*testing.T) players.Store { return memstore.New() })
}

// TestTicketsConformance runs the players.TicketStore contract on this store.
func TestTicketsConformance(t *testing.T) {
	storetest.RunTickets(t, func(*testing.T) players.Store { return memstore.New() })
}
