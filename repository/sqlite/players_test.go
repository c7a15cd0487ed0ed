package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestPlayersConformance runs the players.Store contract that memstore passes too.
func TestPlayersConformance(t *testing.T) {
	storetest.RunPlayers(t, func(t *testing.T) players.Store {
		s, _ := openStore(t, sqlite.Options{})
		return s
	})
}
