package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/storetest"
)

// TestConformance runs the EventStore contract that the SQLite store passes too.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) referee.EventStore { return memstore.New() })
}
