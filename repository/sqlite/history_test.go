package sqlite_test

import (
	"os"
	"testing"

	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestHistoryAtScale pages through 500 matches (2,000 with ALLFIVES_BIG=1). 500 already takes
// every query over two pages or more, and the longest over 14; the big run pages deeper, at
// about 10 ms a stored match under the race detector.
func TestHistoryAtScale(t *testing.T) {
	n := 500
	if os.Getenv("ALLFIVES_BIG") != "" {
		n = 2000
	}
	// This test is about queries, not durability: relaxed sync keeps the set-up fast.
	s, _ := openStore(t, sqlite.Options{Sync: "normal"})
	storetest.HistoryAtScale(t, s, n)
}
