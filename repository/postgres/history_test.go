package postgres_test

import (
	"testing"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/storetest"
)

// TestHistoryAtScale pages through 3,000 matches (the longest query over 30 pages); the order
// is the byte order of ids, whatever the database's locale.
func TestHistoryAtScale(t *testing.T) {
	n := 3000
	s, _ := openStore(t, postgres.Options{})
	storetest.HistoryAtScale(t, s, n)
}
