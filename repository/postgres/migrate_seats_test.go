package postgres

import (
	"context"
	"slices"
	"testing"

	"github.com/allfives/allfives/domain"
)

// TestMigrateSeatsAndClockKeepsOldMatches: a database made by the first schema, holding a
// match, moves to the second with the match, its seats and events intact, the target filled
// in from match.created and the turn from the last event; the widened checks take a waiting
// match and an open seat, and the indexes the sweeper and the lobby walk exist.
func TestMigrateSeatsAndClockKeepsOldMatches(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t, Options{NoMigrate: true})
	p, err := s.migrator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO matches VALUES ('m1', '` + domain.Seed{}.String() + `', 'in_progress', '[{"seat":0,"name":"a","kind":"human"},{"seat":1,"name":"b","kind":"bot","bot":"greedy"}]', '[0,0]', NULL, 1, 3, '2026-01-01T00:00:00.000000000Z', '2026-01-01T00:00:00.000000000Z')`,
		`INSERT INTO seats VALUES ('m1', 0, 'a', 'human', '', '\x00'), ('m1', 1, 'b', 'bot', 'greedy', NULL)`,
		`INSERT INTO events VALUES ('m1', 1, 'match.created', '{"players":[],"partnerships":false,"target":150}', '2026-01-01T00:00:00.000000000Z', NULL, '\x01')`,
		`INSERT INTO events VALUES ('m1', 2, 'hand.started', '{"hand":1,"leader":1}', '2026-01-01T00:00:00.000000000Z', '\x01', '\x02')`,
		`INSERT INTO events VALUES ('m1', 3, 'tile.played', '{"seat":1,"tile":"6-6"}', '2026-01-01T00:00:00.000000000Z', '\x02', '\x03')`,
	} {
		if err := s.db.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	sm, err := s.Match(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if sm.SummaryErr != nil || len(sm.Record.Seats) != 2 || sm.Record.Seats[1].Bot != "greedy" || sm.Summary.Target != 150 ||
		sm.Summary.Status != domain.StatusInProgress || sm.Summary.Turn == nil || *sm.Summary.Turn != 0 ||
		sm.Summary.Deadline != nil || sm.Summary.OpenSeats == nil || len(sm.Summary.OpenSeats) != 0 || sm.Summary.Listed {
		t.Fatalf("after the migration: %+v", sm)
	}
	for _, q := range []string{
		`UPDATE matches SET status = 'waiting' WHERE id = 'm1'`,
		`UPDATE matches SET status = 'expired' WHERE id = 'm1'`,
		`INSERT INTO seats (match_id, seat, name, kind, invite_hash) VALUES ('m1', 2, '', 'open', '\x04')`,
	} {
		if err := s.db.Exec(q).Error; err != nil {
			t.Fatalf("the widened schema refuses %s: %v", q, err)
		}
	}
	if err := s.db.Exec(`UPDATE matches SET status = 'paused' WHERE id = 'm1'`).Error; err == nil {
		t.Fatal("a status outside the four was stored")
	}
	var indexes []string
	s.db.Raw(`SELECT indexname FROM pg_indexes WHERE tablename = 'matches' ORDER BY 1`).Scan(&indexes)
	for _, want := range []string{"matches_lobby", "matches_turn_deadline", "matches_waiting_updated"} {
		found := false
		for _, got := range indexes {
			found = found || got == want
		}
		if !found {
			t.Errorf("no index %s among %v", want, indexes)
		}
	}
}

// TestMigrateDownAndUp: the Down half of every migration runs and leaves a database that
// migrates up again to the columns the code expects.
func TestMigrateDownAndUp(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t, Options{})
	p, err := s.migrator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 0); err != nil {
		t.Fatalf("down: %v", err)
	}
	var left []string
	s.db.Raw(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'goose_db_version'`).Scan(&left)
	if len(left) != 0 {
		t.Fatalf("after down, still in the schema: %v", left)
	}
	if applied, err := s.Migrate(ctx); err != nil || !slices.Equal(applied, Migrations) {
		t.Fatalf("up again applied %v: %v", applied, err)
	}
	checkColumns(t, s)
}
