package postgres

import (
	"context"
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkPlayerMatchesAtScale times a page of a player's matches (GET
// /api/v1/players/{id}/matches, with its filters, cursors and turn=me) among a million stored
// matches (storetest.PlayerScale) on a database of its own: the bar is a p99 under
// 10 ms. The rows are loaded straight into the tables and ANALYZEd (autovacuum would do it on
// a live database), then every case's answer is checked against the data set, and each case's
// plan as EXPLAIN (ANALYZE, BUFFERS) runs it is logged (-v). -short skips it.
//
//	go test ./repository/postgres -run '^$' -bench PlayerMatchesAtScale -benchtime 2s -timeout 60m -v
func BenchmarkPlayerMatchesAtScale(b *testing.B) {
	if testing.Short() {
		b.Skip("a million matches: not in -short")
	}
	ctx := context.Background()
	s := openFresh(b, Options{})
	ps := storetest.NewPlayerScale(b, 0)
	ps.Load(b, s.sqlDB, true, 1000, nil)
	if _, err := s.sqlDB.ExecContext(ctx, "ANALYZE"); err != nil {
		b.Fatal(err)
	}
	ps.Check(b, s)
	cases := ps.Cases(b, s)
	for _, c := range cases {
		b.Logf("%s:\n%s", c.Name, queryPlan(b, s, c.Query))
	}
	storetest.BenchPlayerMatches(b, s, cases)
}

// queryPlan is PostgreSQL's plan of the query PlayerMatches runs for q, as it ran.
func queryPlan(b *testing.B, s *Store, q referee.PlayerMatchQuery) string {
	b.Helper()
	stmts := storetest.CaptureSQL(s.db, func(db *gorm.DB) {
		if _, err := sqlrow.PlayerMatches(db, s.log, q); err != nil {
			b.Fatal(err)
		}
	})
	var lines []string
	for _, sql := range stmts {
		rows, err := s.sqlDB.Query("EXPLAIN (ANALYZE, BUFFERS) " + sql)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				b.Fatal(err)
			}
			lines = append(lines, "    "+line)
		}
		rows.Close()
	}
	return strings.Join(lines, "\n")
}
