package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestPlayersConformance runs the players.Store contract that memstore and the SQLite store
// pass too, each subtest on a database of its own.
func TestPlayersConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunPlayers(t, func(t *testing.T) players.Store {
		s, _ := openStore(t, postgres.Options{})
		return s
	})
}
