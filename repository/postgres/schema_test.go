package postgres_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestMigrateTwice: a new database gets the whole schema, a second run applies nothing, and
// opening again (which migrates) is a no-op too.
func TestMigrateTwice(t *testing.T) {
	s, url := openStore(t, postgres.Options{NoMigrate: true})
	applied, err := s.Migrate(ctx)
	if err != nil || !slices.Equal(applied, postgres.Migrations) {
		t.Fatalf("first run applied %v, err %v", applied, err)
	}
	if again, err := s.Migrate(ctx); err != nil || len(again) != 0 {
		t.Fatalf("second run applied %v, err %v", again, err)
	}
	cur, known, err := s.SchemaVersion(ctx)
	if err != nil || cur != known || cur != postgres.LatestVersion() {
		t.Fatalf("schema version %d of %d, err %v", cur, known, err)
	}
	again := openAt(t, url, postgres.Options{})
	if more, err := again.Migrate(ctx); err != nil || len(more) != 0 {
		t.Fatalf("after reopen applied %v, err %v", more, err)
	}
}

// TestSchemaKeys: every table's primary key starts with match_id, except matches and players,
// each keyed by its id, so that one match's rows sit together and a future partitioning by
// match stays possible.
func TestSchemaKeys(t *testing.T) {
	_, url := openStore(t, postgres.Options{})
	conn := connect(t, url)
	rows, err := conn.Query(ctx, `
		SELECT c.relname, array_agg(a.attname::text ORDER BY k.ord)
		FROM pg_index i
		JOIN pg_class c ON c.oid = i.indrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
		CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
		WHERE i.indisprimary AND c.relname <> 'goose_db_version'
		GROUP BY c.relname ORDER BY c.relname`)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string][]string{}
	for rows.Next() {
		var table string
		var cols []string
		if err := rows.Scan(&table, &cols); err != nil {
			t.Fatal(err)
		}
		keys[table] = cols
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"matches": {"id"}, "seats": {"match_id", "seat"},
		"events": {"match_id", "seq"}, "idempotency_keys": {"match_id", "seat", "key"},
		"players": {"id"}, "server_keys": {"name"}, "player_skeletons": {"player_id"},
		"seeks": {"id"}, "puzzles": {"match_id", "step"},
	}
	for table, cols := range want {
		if !slices.Equal(keys[table], cols) {
			t.Errorf("primary key of %s: %v, want %v", table, keys[table], cols)
		}
	}
	for table, cols := range keys {
		// A player's rating (ratings), its name's skeleton (player_skeletons) and a key of the
		// server's (server_keys) are no match's either, nor is a player's seek (seeks).
		// Nor are a tournament's log and seals: they are keyed by the tournament (or by the
		// round's commitment), and a tournament's rows stay on its own shard.
		tournamentTable := table == "tournaments" || table == "tournament_events" || table == "tournament_seals"
		// A puzzle's players and attempts are keyed by the puzzle, a solver's puzzle rating by
		// its player (the puzzles themselves by their match and step).
		puzzleTable := table == "puzzle_players" || table == "puzzle_attempts" || table == "puzzle_solvers"
		if table != "matches" && table != "players" && table != "ratings" && table != "player_skeletons" && table != "server_keys" && table != "seeks" && !tournamentTable && !puzzleTable && cols[0] != "match_id" {
			t.Errorf("table %s is keyed by %v, which does not start with match_id", table, cols)
		}
	}
}

// TestEventsAppendOnly: the database itself refuses to change or remove a stored event,
// whoever asks, and the log is unchanged afterwards.
func TestEventsAppendOnly(t *testing.T) {
	s, url := openStore(t, postgres.Options{})
	f := storetest.PlayedMatches(t, s, "m", 1, 5)[0]
	conn := connect(t, url)
	for _, stmt := range []string{
		`UPDATE events SET data = '{}' WHERE match_id = 'm0' AND seq = 2`,
		`UPDATE events SET hash = hash WHERE match_id = 'm0'`,
		`DELETE FROM events WHERE match_id = 'm0' AND seq = 3`,
		`DELETE FROM events`,
		`TRUNCATE events CASCADE`,
	} {
		_, err := conn.Exec(ctx, stmt)
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: got %v, want the append-only refusal", stmt, err)
		}
	}
	events, err := s.Events(ctx, "m0", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameEvents(t, events, f.Events)
	if rep, err := s.VerifyChain(ctx, "m0"); err != nil || !rep.OK {
		t.Fatalf("chain after the refused edits: %+v %v", rep, err)
	}
}

// connect opens a plain connection to the database at url, closed when t ends.
func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return conn
}

// TestOpenTogether: instances starting at once on a new database all open, and the schema is
// applied once: goose migrates under an advisory lock.
func TestOpenTogether(t *testing.T) {
	url := pgtest.URL(t)
	const n = 4
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s, err := postgres.Open(ctx, url, postgres.Options{})
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
	}
	var applied int
	if err := connect(t, url).QueryRow(ctx, "SELECT count(*) FROM goose_db_version WHERE version_id = 1").Scan(&applied); err != nil || applied != 1 {
		t.Fatalf("migration 1 recorded %d times, err %v", applied, err)
	}
}
