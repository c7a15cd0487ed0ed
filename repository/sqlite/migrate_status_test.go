package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/repository/storetest"
)

// TestMigratePlayerMatchStatus: bound seats stored before 00009 get their match's status from
// its Up, so a player's matches of one status are listed as before; its Down leaves seats as
// 00005 made them (migrations/sqlite/00009_player_match_status.sql).
func TestMigratePlayerMatchStatus(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "st.db"), Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := s.migrator()
	if err != nil {
		t.Fatal(err)
	}
	// Stored by today's code, whose rows are those of the latest schema; the down then takes
	// match_status and its triggers away, as a database of 00008 never had them.
	check := storetest.PlayerStatuses(t, s)
	if _, err := p.DownTo(ctx, 8); err != nil {
		t.Fatalf("down to 8: %v", err)
	}
	var left int
	s.r.Raw("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%match_status%'").Scan(&left)
	if left != 0 {
		t.Fatalf("after the down, %d objects still name match_status", left)
	}
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var unset int
	s.r.Raw("SELECT count(*) FROM seats WHERE (player_id IS NULL) <> (match_status IS NULL)").Scan(&unset)
	if unset != 0 {
		t.Fatalf("%d seats whose match_status does not go with player_id", unset)
	}
	check(t)
}
