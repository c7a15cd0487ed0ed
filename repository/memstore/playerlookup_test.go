package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/domain/players"
	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/storetest"
)

func TestPlayerLookupConformance(t *testing.T) {
	storetest.RunPlayerLookup(t, func(*testing.T) players.Store { return memstore.New() })
}
