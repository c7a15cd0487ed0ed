package memstore_test

import (
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/memstore"
	"github.com/allfives/allfives/domain/storetest"
)

// TestConformance runs the EventStore contract that the SQLite store passes too.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) domain.EventStore { return memstore.New() })
}
