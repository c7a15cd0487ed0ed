package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestSeeksConformance runs the seeks.Store contract on this store.
func TestSeeksConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunSeeks(t, func(t *testing.T) seeks.Store {
		s, _ := openStore(t, postgres.Options{})
		return s
	})
}
