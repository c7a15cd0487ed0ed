package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestTournamentsConformance runs the tournaments.Store contract the SQLite store passes too,
// each subtest on a database of its own.
func TestTournamentsConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunTournaments(t, func(t *testing.T) tournaments.Store {
		s, _ := openStore(t, postgres.Options{})
		return s
	})
}
