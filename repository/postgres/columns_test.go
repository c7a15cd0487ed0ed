package postgres

import (
	"slices"
	"sync"
	"testing"

	"github.com/allfives/allfives/repository/sqlrow"
	"gorm.io/gorm/schema"
)

// checkColumns compares the database with what the code expects: each table's columns are
// exactly the row type's columns.
func checkColumns(t *testing.T, s *Store) {
	t.Helper()
	for _, row := range []any{&sqlrow.MatchRow{}, &sqlrow.SeatRow{}, &sqlrow.EventRow{}, &sqlrow.IdempotencyRow{}, &sqlrow.PlayerRow{}, &sqlrow.SkeletonRow{}, &sqlrow.ReviewRow{}, &sqlrow.ChangeRow{}, &sqlrow.StandingRow{}, &sqlrow.QueueRow{}} {
		sch, err := schema.Parse(row, &sync.Map{}, schema.NamingStrategy{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := s.db.Raw(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?`, sch.Table).
			Scan(&got).Error; err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(sch.DBNames)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("table %s: columns %v, code expects %v", sch.Table, got, want)
		}
	}
}
