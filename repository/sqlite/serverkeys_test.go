package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestServerKeysConformance: one process owns a SQLite file, so its two handles are one store.
func TestServerKeysConformance(t *testing.T) {
	storetest.RunServerKeys(t, func(t *testing.T) (ratings.KeyStore, ratings.KeyStore) {
		s, _ := openStore(t, sqlite.Options{})
		return s, s
	})
}
