package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/allfives/allfives/repository/sqlrow"
	"gorm.io/gorm/schema"
)

// TestMigrateFromEmptyTwice: a new file gets the whole schema, a second run applies nothing,
// and opening again (which migrates) is a no-op too.
func TestMigrateFromEmptyTwice(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(ctx, path, Options{NoMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	applied, err := s.Migrate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(applied, Migrations) {
		t.Fatalf("first run applied %v", applied)
	}
	if again, err := s.Migrate(ctx); err != nil || len(again) != 0 {
		t.Fatalf("second run applied %v, err %v", again, err)
	}
	cur, known, err := s.SchemaVersion(ctx)
	if err != nil || cur != known || cur != LatestVersion() {
		t.Fatalf("schema version %d of %d, err %v", cur, known, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	if again, err := s.Migrate(ctx); err != nil || len(again) != 0 {
		t.Fatalf("after reopen applied %v, err %v", again, err)
	}
	checkSchema(t, s)
}

// TestMigrateDownAndUp: the Down half of every migration runs and leaves a database that
// migrates up again to the same schema.
func TestMigrateDownAndUp(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "d.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := s.migrator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 0); err != nil {
		t.Fatalf("down: %v", err)
	}
	var left []string
	s.r.Raw("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'goose_%'").Scan(&left)
	if len(left) != 0 {
		t.Fatalf("after down, still in the schema: %v", left)
	}
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatalf("up again: %v", err)
	}
	checkSchema(t, s)
}

// checkSchema compares the database with what the code expects: each table's columns are
// exactly the row type's columns, and the indexes and triggers the queries rely on exist.
func checkSchema(t *testing.T, s *Store) {
	t.Helper()
	for _, row := range []any{&sqlrow.MatchRow{}, &sqlrow.SeatRow{}, &sqlrow.EventRow{}, &sqlrow.IdempotencyRow{}, &sqlrow.PlayerRow{}, &sqlrow.SkeletonRow{}, &sqlrow.ReviewRow{}, &sqlrow.ChangeRow{}, &sqlrow.StandingRow{}, &sqlrow.QueueRow{}} {
		sch, err := schema.Parse(row, &sync.Map{}, schema.NamingStrategy{})
		if err != nil {
			t.Fatal(err)
		}
		var cols []struct {
			Name string `gorm:"column:name"`
			PK   int    `gorm:"column:pk"`
		}
		if err := s.r.Raw("SELECT name, pk FROM pragma_table_info(?)", sch.Table).Scan(&cols).Error; err != nil {
			t.Fatal(err)
		}
		var got, gotPK, wantPK []string
		for _, c := range cols {
			got = append(got, c.Name)
			if c.PK > 0 {
				gotPK = append(gotPK, c.Name)
			}
		}
		for _, f := range sch.PrimaryFields {
			wantPK = append(wantPK, f.DBName)
		}
		want := slices.Clone(sch.DBNames)
		slices.Sort(got)
		slices.Sort(want)
		slices.Sort(gotPK)
		slices.Sort(wantPK)
		if !slices.Equal(got, want) || !slices.Equal(gotPK, wantPK) {
			t.Errorf("table %s: columns %v pk %v, code expects %v pk %v", sch.Table, got, gotPK, want, wantPK)
		}
	}
	var names []string
	s.r.Raw("SELECT type || ' ' || name FROM sqlite_master WHERE type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY 1").Scan(&names)
	want := []string{
		"index matches_created_id", "index matches_status_created_id", "index seats_name_match",
		"trigger events_no_delete", "trigger events_no_update",
		"index matches_turn_deadline", "index matches_waiting_updated", "index matches_lobby",
		"index players_name_key", "index players_key_hash", "index seats_player_matches",
		"index player_skeletons_skeleton", "index ratings_leaderboard",
	}
	for _, w := range want {
		if !slices.Contains(names, w) {
			t.Errorf("schema lacks %s; has %s", w, strings.Join(names, ", "))
		}
	}
	var mode string
	s.w.Raw("PRAGMA journal_mode").Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode %q, want wal", mode)
	}
}
