package sqlite_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestSeeksConformance runs the seeks.Store contract on this store.
func TestSeeksConformance(t *testing.T) {
	storetest.RunSeeks(t, func(t *testing.T) seeks.Store {
		s, _ := openStore(t, sqlite.Options{})
		return s
	})
}
