package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/domain/players"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

func TestPlayerLookupConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunPlayerLookup(t, func(t *testing.T) players.Store {
		s, _ := openStore(t, postgres.Options{})
		return s
	})
}
