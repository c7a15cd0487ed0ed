package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestPlayerLookupConformance runs the players.NameStore contract on this store.
func TestPlayerLookupConformance(t *testing.T) {
	storetest.RunPlayerLookup(t, func(t *testing.T) players.Store {
		s, _ := openStore(t, sqlite.Options{})
		return s
	})
}

// TestTicketsConformance runs the players.TicketStore contract on this store.
func TestTicketsConformance(t *testing.T) {
	storetest.RunTickets(t, func(t *testing.T) players.Store {
		s, _ := openStore(t, sqlite.Options{})
		return s
	})
}
