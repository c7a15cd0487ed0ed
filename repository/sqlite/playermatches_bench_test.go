package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkPlayerMatchesAtScale times a page of a player's matches (GET
// /api/v1/players/{id}/matches, with its filters, cursors and turn=me) among a million stored
// matches (storetest.PlayerScale): the bar is a p99 under 10 ms. The rows are loaded
// straight into the tables, then every case's answer is checked against the data set, and
// each case's query plan is logged (-v). -short skips it. The load takes minutes:
// ALLFIVES_BENCH_DB names a file to keep the loaded database in, which a later run with the
// same ALLFIVES_BENCH_MATCHES opens instead of loading again (delete it when done: about 2 GB
// for a million matches).
//
//	go test ./repository/sqlite -run '^$' -bench PlayerMatchesAtScale -benchtime 2s -timeout 60m -v
func BenchmarkPlayerMatchesAtScale(b *testing.B) {
	if testing.Short() {
		b.Skip("a million matches: not in -short")
	}
	path := os.Getenv("ALLFIVES_BENCH_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "scale.db")
	}
	_, statErr := os.Stat(path)
	s, err := Open(context.Background(), path, Options{Sync: "off"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	ps := storetest.NewPlayerScale(b, 0)
	if statErr == nil {
		var n int
		if err := s.r.Raw("SELECT count(*) FROM matches").Scan(&n).Error; err != nil || n != ps.Matches {
			b.Fatalf("%s holds %d matches, not %d: delete it to load it again (%v)", path, n, ps.Matches, err)
		}
		b.Logf("kept from an earlier run: %s", path)
	} else {
		load(b, s, ps)
	}
	ps.Check(b, s)
	cases := ps.Cases(b, s)
	for _, c := range cases {
		b.Logf("%s: %s", c.Name, queryPlan(b, s, c.Query))
	}
	storetest.BenchPlayerMatches(b, s, cases)
}

// load stores the data set in s.
func load(b *testing.B, s *Store, ps storetest.PlayerScale) {
	b.Helper()
	db, err := s.w.DB()
	if err != nil {
		b.Fatal(err)
	}
	// The load has the writer to itself, with room to hold the indexes it grows: the default
	// cache of 2 MB would make each insert into the index of random ids a read of the file.
	// The reads timed below keep the default cache of the read pool.
	s.writing.Lock()
	if _, err := db.Exec("PRAGMA cache_size = -1048576"); err != nil {
		b.Fatal(err)
	}
	ps.Load(b, db, false, loadBatch, func() error {
		// The store's checkpointer runs after the committer's appends, which the load makes
		// none of: without this the write-ahead log would grow to the size of the database.
		_, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		return err
	})
	if _, err := db.Exec("PRAGMA cache_size = -2000"); err != nil {
		b.Fatal(err)
	}
	s.writing.Unlock()
}

// queryPlan is SQLite's plan of the query PlayerMatches runs for q, one step after another.
func queryPlan(b *testing.B, s *Store, q referee.PlayerMatchQuery) string {
	b.Helper()
	stmts := storetest.CaptureSQL(s.r, func(db *gorm.DB) {
		if _, err := sqlrow.PlayerMatches(db, s.log, q); err != nil {
			b.Fatal(err)
		}
	})
	var steps []string
	for _, sql := range stmts {
		rows, err := s.rdb.Query("EXPLAIN QUERY PLAN " + sql)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				b.Fatal(err)
			}
			steps = append(steps, detail)
		}
		rows.Close()
	}
	return strings.Join(steps, "; ")
}

// loadBatch is the matches to one INSERT of the load (storetest.PlayerScale.Load).
const loadBatch = 16
