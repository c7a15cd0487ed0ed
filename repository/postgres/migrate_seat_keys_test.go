package postgres

import (
	"context"
	"slices"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// seatKeysFixture is what the tests of 00003 store under 00002: three matches whose
// match.created says seeded true, seeded false and nothing, and two idempotency records of m1
// by different seats.
var seatKeysFixture = []string{
	`INSERT INTO matches (id, seed, status, players, scores, hands, version, created_at, updated_at, target) VALUES
		('m1', '` + domain.Seed{}.String() + `', 'in_progress', '[{"seat":0,"name":"a","kind":"human"},{"seat":1,"name":"b","kind":"human"}]', '[0,0]', 1, 4, '2026-01-01T00:00:00.000000000Z', '2026-01-01T00:00:03.000000000Z', 150),
		('m2', '` + domain.Seed{}.String() + `', 'in_progress', '[{"seat":0,"name":"a","kind":"human"},{"seat":1,"name":"b","kind":"human"}]', '[0,0]', 1, 1, '2026-01-01T00:00:01.000000000Z', '2026-01-01T00:00:01.000000000Z', 150),
		('m3', '` + domain.Seed{}.String() + `', 'in_progress', '[{"seat":0,"name":"a","kind":"human"},{"seat":1,"name":"b","kind":"human"}]', '[0,0]', 1, 1, '2026-01-01T00:00:02.000000000Z', '2026-01-01T00:00:02.000000000Z', 150)`,
	`INSERT INTO events VALUES ('m1', 1, 'match.created', '{"players":[],"partnerships":false,"target":150,"seeded":true}', '2026-01-01T00:00:00.000000000Z', NULL, '\x01')`,
	`INSERT INTO events VALUES ('m2', 1, 'match.created', '{"players":[],"partnerships":false,"target":150,"seeded":false}', '2026-01-01T00:00:01.000000000Z', NULL, '\x01')`,
	`INSERT INTO events VALUES ('m3', 1, 'match.created', '{"players":[],"partnerships":false,"target":150}', '2026-01-01T00:00:02.000000000Z', NULL, '\x01')`,
	`INSERT INTO idempotency_keys (match_id, key, seat, fingerprint, first_seq, last_seq, created_at) VALUES
		('m1', 'a', 0, '0 play 5-5', 3, 3, '2026-01-01T00:00:02.000000000Z'),
		('m1', 'b', 1, '1 draw', 4, 4, '2026-01-01T00:00:03.000000000Z')`,
}

// TestMigrateSeatKeysKeepsRecords: records stored under 00002 survive 00003 with their seats
// and every field, each found only by its own seat; two seats may then share a key, which the
// Down half refuses to squeeze back into one key per match; seeded is backfilled from
// match.created (absent: false) and read back by Match and History.
func TestMigrateSeatKeysKeepsRecords(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t, Options{NoMigrate: true})
	p, err := s.migrator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	for _, q := range seatKeysFixture {
		if err := s.db.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if applied, err := s.Migrate(ctx); err != nil || !slices.Equal(applied, Migrations[2:]) || applied[0] != "00003_seat_keys_and_seeded.sql" {
		t.Fatalf("migrate applied %v: %v", applied, err)
	}
	checkSeatKeysMigrated(t, s)
	checkColumns(t, s)

	// Down to 00002 and up again keeps the records too, while no key is shared by two seats.
	if _, err := p.DownTo(ctx, 2); err != nil {
		t.Fatalf("down to 2: %v", err)
	}
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatalf("up again: %v", err)
	}
	checkSeatKeysMigrated(t, s)

	if err := s.db.Exec(`INSERT INTO idempotency_keys (match_id, seat, key, fingerprint, first_seq, last_seq, created_at)
		VALUES ('m1', 1, 'a', '1 pass', 5, 5, '2026-01-01T00:00:04.000000000Z')`).Error; err != nil {
		t.Fatalf("seat 1's key a beside seat 0's: %v", err)
	}
	if _, err := p.DownTo(ctx, 2); err == nil {
		t.Fatal("down to 2 took two seats' records of one key")
	}
	// goose ran the refused Down in one transaction: nothing of it is left.
	if cur, _, err := s.SchemaVersion(ctx); err != nil || cur != 3 {
		t.Fatalf("after the refused down: schema %d, err %v", cur, err)
	}
	if got, ok, err := s.Idempotency(ctx, "m1", 1, "a"); err != nil || !ok || got.Fingerprint != "1 pass" {
		t.Fatalf("seat 1's key a after the refused down: %+v %v %v", got, ok, err)
	}
	// The code reads the newest schema: the later migrations, undone before the refusal, again.
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	checkSeatKeysMigrated(t, s)
}

// checkSeatKeysMigrated checks seatKeysFixture's rows as the current schema holds them.
func checkSeatKeysMigrated(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	want := []referee.IdempotencyRecord{
		{Key: "a", Seat: 0, Fingerprint: "0 play 5-5", FirstSeq: 3, LastSeq: 3},
		{Key: "b", Seat: 1, Fingerprint: "1 draw", FirstSeq: 4, LastSeq: 4},
	}
	for _, w := range want {
		got, ok, err := s.Idempotency(ctx, "m1", w.Seat, w.Key)
		if err != nil || !ok || got.Seat != w.Seat || got.Fingerprint != w.Fingerprint || got.FirstSeq != w.FirstSeq ||
			got.LastSeq != w.LastSeq || got.CreatedAt.IsZero() {
			t.Fatalf("record %s of seat %d after the migration: %+v ok %v err %v", w.Key, w.Seat, got, ok, err)
		}
	}
	if other, ok, err := s.Idempotency(ctx, "m1", 0, "b"); ok || err != nil {
		t.Fatalf("seat 0 finds seat 1's key b: %+v %v", other, err)
	}
	seeded := map[string]bool{"m1": true, "m2": false, "m3": false}
	for id, want := range seeded {
		sm, err := s.Match(ctx, id)
		if err != nil || sm.SummaryErr != nil || sm.Summary.Seeded != want || sm.Summary.Target != 150 {
			t.Fatalf("%s after the migration: %+v %v", id, sm.Summary, err)
		}
	}
	page, err := s.History(ctx, referee.HistoryQuery{})
	if err != nil || len(page.Matches) != 3 {
		t.Fatalf("history: %+v %v", page, err)
	}
	for _, it := range page.Matches {
		if it.Summary.Seeded != seeded[it.ID] {
			t.Errorf("history item %s: seeded %v, want %v", it.ID, it.Summary.Seeded, seeded[it.ID])
		}
	}
}
