package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/domain"
)

// TestMigrateSeatsAndClockKeepsOldMatches: a database made by the first schema, holding a
// match, moves to the second with the match, its seats and events intact, the target filled
// in from match.created and the turn from the last event, and foreign keys enforced again
// afterwards.
func TestMigrateSeatsAndClockKeepsOldMatches(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "old.db"), Options{NoMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := s.migrator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO matches VALUES ('m1', '` + domain.Seed{}.String() + `', 'in_progress', '[{"seat":0,"name":"a","kind":"human"},{"seat":1,"name":"b","kind":"bot","bot":"greedy"}]', '[0,0]', NULL, 1, 2, '2026-01-01T00:00:00.000000000Z', '2026-01-01T00:00:00.000000000Z')`,
		`INSERT INTO seats VALUES ('m1', 0, 'a', 'human', '', x'00'), ('m1', 1, 'b', 'bot', 'greedy', NULL)`,
		`INSERT INTO events VALUES ('m1', 1, 'match.created', '{"players":[],"partnerships":false,"target":150}', '2026-01-01T00:00:00.000000000Z', NULL, x'01')`,
		`INSERT INTO events VALUES ('m1', 2, 'hand.started', '{"hand":1,"leader":1}', '2026-01-01T00:00:00.000000000Z', x'01', x'02')`,
	} {
		if err := s.w.Exec(q).Error; err != nil {
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
	if len(sm.Record.Seats) != 2 || sm.Record.Seats[1].Bot != "greedy" || sm.Summary.Target != 150 || sm.Summary.Status != domain.StatusInProgress ||
		sm.Summary.Turn == nil || *sm.Summary.Turn != 1 || sm.Summary.Deadline != nil {
		t.Fatalf("after the migration: %+v", sm)
	}
	var fk int
	s.w.Raw("PRAGMA foreign_keys").Scan(&fk)
	var broken []string
	s.w.Raw("SELECT \"table\" FROM pragma_foreign_key_check").Scan(&broken)
	if fk != 1 || len(broken) != 0 {
		t.Fatalf("foreign_keys %d, violations %v", fk, broken)
	}
	if err := s.w.Exec(`INSERT INTO seats (match_id, seat, name, kind) VALUES ('nope', 0, 'x', 'open')`).Error; err == nil {
		t.Fatal("a seat of no match was stored: foreign keys are off")
	}
	checkSchema(t, s)
}
