package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/storetest"
)

// TestPlayersConformance runs the players.Store contract that the SQL stores pass too.
func TestPlayersConformance(t *testing.T) {
	storetest.RunPlayers(t, func(*testing.T) players.Store { return memstore.New() })
}
