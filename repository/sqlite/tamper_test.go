package sqlite_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestTamperedRowIsCaught: changes made behind the store's back, with plain SQL on the file,
// are caught by VerifyChain at the right seq. The append-only triggers refuse the changes
// first; the tamperer has to drop them, as anyone with write access to the file could.
func TestTamperedRowIsCaught(t *testing.T) {
	s, path := openStore(t, sqlite.Options{})
	storetest.PlayedMatches(t, s, "t-", 5, 20)
	raw := openRaw(t, path)
	exec := func(q string, args ...any) error {
		_, err := raw.ExecContext(ctx, q, args...)
		return err
	}
	for _, q := range []string{
		"UPDATE events SET data = data WHERE match_id = 't-0' AND seq = 5",
		"DELETE FROM events WHERE match_id = 't-0' AND seq = 5",
	} {
		if err := exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("%s: got %v, want the append-only trigger to refuse it", q, err)
		}
	}
	if err := exec("DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete"); err != nil {
		t.Fatal(err)
	}

	tampers := []struct {
		id, sql string
		bad     int
	}{
		// A payload edited in place (one byte of whitespace is enough): its hash no longer
		// matches.
		{"t-0", "UPDATE events SET data = data || ' ' WHERE match_id = 't-0' AND seq = 5", 5},
		// The edit with the row's hash recomputed by the tamperer: the next row's link breaks.
		{"t-1", "", 6},
		// A row removed from the middle: a gap.
		{"t-2", "DELETE FROM events WHERE match_id = 't-2' AND seq = 4", 4},
		// The tail removed: no break inside the chain. The log is shorter than the read model's
		// version, which the audit's read-model check reports, blaming no event.
		{"t-3", "DELETE FROM events WHERE match_id = 't-3' AND seq = (SELECT max(seq) FROM events WHERE match_id = 't-3')", 0},
	}
	for _, tc := range tampers {
		if tc.sql != "" {
			if err := exec(tc.sql); err != nil {
				t.Fatal(err)
			}
		} else {
			rehash(t, raw, tc.id, tc.bad-1)
		}
		rep, err := s.VerifyChain(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK != (tc.bad == 0) || rep.FirstBadSeq != tc.bad {
			t.Errorf("%s: report %+v, want first bad seq %d", tc.id, rep, tc.bad)
		}
	}
	// The untouched match still verifies.
	if rep, err := s.VerifyChain(ctx, "t-4"); err != nil || !rep.OK {
		t.Fatalf("untouched match: %+v %v", rep, err)
	}
}

// rehash edits the payload of one event and writes the matching hash for it, as a careful
// tamperer would.
func rehash(t *testing.T, raw *sql.DB, id string, seq int) {
	t.Helper()
	var (
		typ, data string
		prev      []byte
	)
	if err := raw.QueryRowContext(ctx, "SELECT type, data, prev_hash FROM events WHERE match_id = ? AND seq = ?", id, seq).Scan(&typ, &data, &prev); err != nil {
		t.Fatal(err)
	}
	data = strings.Replace(data, `"seat":0`, `"seat":1`, 1) + " "
	h := audit.ChainHash(prev, seq, domain.EventType(typ), []byte(data))
	if _, err := raw.ExecContext(ctx, "UPDATE events SET data = ?, hash = ? WHERE match_id = ? AND seq = ?", data, h, id, seq); err != nil {
		t.Fatal(err)
	}
}

// TestUnreadableRowIsRecordCorrupt: a row the store cannot read back (a payload naming a tile
// that does not exist, a seed that is not hex) is ErrRecordCorrupt naming the row, never the
// client's INVALID_REQUEST, although the decoders behind it report domain errors; the service
// turns it into a problem that names the match and nothing of the row.
func TestUnreadableRowIsRecordCorrupt(t *testing.T) {
	s, path := openStore(t, sqlite.Options{})
	storetest.PlayedMatches(t, s, "u-", 1, 20)
	raw := openRaw(t, path)
	var seq int
	if err := raw.QueryRowContext(ctx, "SELECT min(seq) FROM events WHERE match_id = 'u-0' AND type = 'tile.played'").Scan(&seq); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DROP TRIGGER events_no_update",
		fmt.Sprintf(`UPDATE events SET data = json_set(data, '$.tile', '9-9') WHERE match_id = 'u-0' AND seq = %d`, seq),
		"UPDATE matches SET seed = 'not hex' WHERE id = 'u-0'",
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	_, eventsErr := s.Events(ctx, "u-0", 0, 0)
	_, matchErr := s.Match(ctx, "u-0")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{eventsErr, fmt.Sprintf("seq %d: ", seq)},
		{matchErr, "stored seed: "},
	} {
		if tc.err == nil || domain.CodeOf(tc.err) != storeerr.CodeRecordCorrupt || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("got %v (code %s), want RECORD_CORRUPT containing %q", tc.err, domain.CodeOf(tc.err), tc.want)
		}
	}
}

// openRaw opens the database file with plain database/sql, as someone with write access to it
// would, bypassing the store.
func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}
