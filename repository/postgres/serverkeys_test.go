package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestServerKeysConformance: two instances on one database get one key.
func TestServerKeysConformance(t *testing.T) {
	pgtest.Require(t)
	storetest.RunServerKeys(t, func(t *testing.T) (ratings.KeyStore, ratings.KeyStore) {
		a, url := openStore(t, postgres.Options{})
		return a, openAt(t, url, postgres.Options{})
	})
}
