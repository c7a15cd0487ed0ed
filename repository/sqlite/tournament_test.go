package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestTournamentsConformance runs the tournaments.Store contract.
func TestTournamentsConformance(t *testing.T) {
	storetest.RunTournaments(t, func(t *testing.T) tournaments.Store {
		s, _ := openStore(t, sqlite.Options{})
		return s
	})
}
