package postgres

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/repository/storetest"
)

// playerPage is the query "a player's matches, newest first, after a cursor" that the index
// seats_player_matches serves (migrations/postgres/00005_players.sql).
const playerPage = `SELECT match_id FROM seats WHERE player_id = ? AND (match_created_at, match_id) < (?, ?)
	ORDER BY match_created_at DESC, match_id DESC LIMIT 20`

// TestMigratePlayers: matches stored before 00005 survive its Down and Up with their seats
// anonymous; afterwards a seat binds only to a stored player, with the match's creation time
// beside it, one seat per player and match; and a player's page of matches is a walk of
// seats_player_matches with no sort, newest first.
func TestMigratePlayers(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t, Options{})
	fixtures := storetest.PlayedMatches(t, s, "m", 2, 5)
	p, err := s.migrator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 3); err != nil {
		t.Fatalf("down to 3: %v", err)
	}
	var left []string
	s.db.Raw(`SELECT table_name || '.' || column_name FROM information_schema.columns
		WHERE table_schema = 'public' AND (table_name = 'players' OR column_name IN ('player_id', 'match_created_at'))`).Scan(&left)
	if len(left) != 0 {
		t.Fatalf("after the down, still in the schema: %v", left)
	}
	if applied, err := s.Migrate(ctx); err != nil || !slices.Equal(applied, Migrations[3:]) {
		t.Fatalf("up again applied %v: %v", applied, err)
	}
	for _, f := range fixtures {
		sm, err := s.Match(ctx, f.Record.ID)
		if err != nil || len(sm.Record.Seats) != len(f.Record.Seats) {
			t.Fatalf("match %s after the migration: %+v %v", f.Record.ID, sm.Record, err)
		}
		events, err := s.Events(ctx, f.Record.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		storetest.SameEvents(t, events, f.Events)
	}
	var bound int
	s.db.Raw("SELECT count(*) FROM seats WHERE player_id IS NOT NULL OR match_created_at IS NOT NULL").Scan(&bound)
	if bound != 0 {
		t.Fatalf("%d seats bound by the migration", bound)
	}
	checkColumns(t, s)

	ada := storetest.NewPlayer(t, "Ada", storetest.Base)
	if err := s.CreatePlayer(ctx, ada); err != nil {
		t.Fatal(err)
	}
	bind := "UPDATE seats SET player_id = ?, match_created_at = (SELECT created_at FROM matches WHERE id = match_id) WHERE match_id = ? AND seat = ?"
	for _, refused := range []struct {
		why  string
		sql  string
		args []any
	}{
		{"a player not stored", bind, []any{"nobody", "m0", 0}},
		{"no match time beside the player", "UPDATE seats SET player_id = ? WHERE match_id = 'm0' AND seat = 0", []any{ada.ID}},
		{"a match time without a player", "UPDATE seats SET match_created_at = 'x' WHERE match_id = 'm0' AND seat = 0", nil},
	} {
		if err := s.db.Exec(refused.sql, refused.args...).Error; err == nil {
			t.Errorf("stored a seat bound to %s", refused.why)
		}
	}
	for _, m := range []string{"m0", "m1"} {
		if err := s.db.Exec(bind, ada.ID, m, 0).Error; err != nil {
			t.Fatalf("bind seat 0 of %s: %v", m, err)
		}
	}
	if err := s.db.Exec(bind, ada.ID, "m0", 1).Error; err == nil {
		t.Error("one player was bound to two seats of one match")
	}

	// A table of a few rows is read whole whatever its indexes; with sequential scans off the
	// planner shows whether the index can serve the page without a sort.
	var plan []string
	err = s.db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("SET LOCAL enable_seqscan = off").Error; err != nil {
			return err
		}
		return tx.Raw("EXPLAIN "+playerPage, ada.ID, "9", "").Scan(&plan).Error
	})
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "; "); !strings.Contains(text, "seats_player_matches") || strings.Contains(text, "Sort") {
		t.Errorf("a player's page is planned as %q, want a walk of seats_player_matches with no sort", text)
	}
	var page []string
	s.db.Raw(playerPage, ada.ID, "9", "").Scan(&page)
	if !slices.Equal(page, []string{"m1", "m0"}) {
		t.Fatalf("Ada's matches %v, want m1 then m0", page)
	}
}
