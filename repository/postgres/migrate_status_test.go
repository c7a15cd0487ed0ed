package postgres

import (
	"context"
	"testing"

	"github.com/allfives/allfives/repository/storetest"
)

// TestMigratePlayerMatchStatus: bound seats stored before 00009 get their match's status from
// its Up, so a player's matches of one status are listed as before; its Down leaves seats as
// 00005 made them (migrations/postgres/00009_player_match_status.sql).
func TestMigratePlayerMatchStatus(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t, Options{})
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
	s.db.Raw(`SELECT (SELECT count(*) FROM information_schema.columns WHERE column_name = 'match_status')
		+ (SELECT count(*) FROM pg_trigger WHERE tgname IN ('seats_status_on_write', 'matches_status_to_seats'))
		+ (SELECT count(*) FROM pg_proc WHERE proname IN ('seats_match_status', 'matches_status_to_seats'))`).Scan(&left)
	if left != 0 {
		t.Fatalf("after the down, %d columns, triggers or functions of 00009 are left", left)
	}
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var unset int
	s.db.Raw("SELECT count(*) FROM seats WHERE (player_id IS NULL) <> (match_status IS NULL)").Scan(&unset)
	if unset != 0 {
		t.Fatalf("%d seats whose match_status does not go with player_id", unset)
	}
	check(t)
}
