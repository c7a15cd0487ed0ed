package postgres_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/storetest"
)

// TestTamperedRowIsCaught: changes made behind the store's back, with plain SQL, are caught by
// VerifyChain at the right seq. The append-only triggers refuse the changes first; the
// tamperer has to drop them, as the database's owner could.
func TestTamperedRowIsCaught(t *testing.T) {
	s, url := openStore(t, postgres.Options{})
	storetest.PlayedMatches(t, s, "t-", 5, 20)
	conn := connect(t, url)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("DROP TRIGGER events_no_update_delete ON events")
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
			exec(tc.sql)
		} else {
			var (
				typ, data string
				prev      []byte
			)
			seq := tc.bad - 1
			if err := conn.QueryRow(ctx, "SELECT type, data, prev_hash FROM events WHERE match_id = $1 AND seq = $2", tc.id, seq).Scan(&typ, &data, &prev); err != nil {
				t.Fatal(err)
			}
			data += " "
			exec("UPDATE events SET data = $1, hash = $2 WHERE match_id = $3 AND seq = $4",
				data, audit.ChainHash(prev, seq, domain.EventType(typ), []byte(data)), tc.id, seq)
		}
		rep, err := s.VerifyChain(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK != (tc.bad == 0) || rep.FirstBadSeq != tc.bad {
			t.Errorf("%s: report %+v, want first bad seq %d", tc.id, rep, tc.bad)
		}
	}
	if rep, err := s.VerifyChain(ctx, "t-4"); err != nil || !rep.OK {
		t.Fatalf("untouched match: %+v %v", rep, err)
	}
}

// TestUnreadableRowIsRecordCorrupt: a row the store cannot read back (a payload naming a tile
// that does not exist, a seed that is not hex) is ErrRecordCorrupt naming the row, never the
// client's INVALID_REQUEST; a read model that does not decode is Match's SummaryErr, beside a
// record that still loads, and the history leaves the row out with a log line instead of
// failing the page.
func TestUnreadableRowIsRecordCorrupt(t *testing.T) {
	var logs bytes.Buffer
	s, url := openStore(t, postgres.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	storetest.PlayedMatches(t, s, "u-", 3, 20)
	conn := connect(t, url)
	var seq int
	if err := conn.QueryRow(ctx, "SELECT min(seq) FROM events WHERE match_id = 'u-0' AND type = 'tile.played'").Scan(&seq); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DROP TRIGGER events_no_update_delete ON events",
		fmt.Sprintf(`UPDATE events SET data = jsonb_set(data::jsonb, '{tile}', '"9-9"')::text WHERE match_id = 'u-0' AND seq = %d`, seq),
		"UPDATE matches SET seed = 'not hex' WHERE id = 'u-0'",
		"UPDATE matches SET scores = 'nope' WHERE id = 'u-1'",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
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
	sm, err := s.Match(ctx, "u-1")
	if err != nil || sm.SummaryErr == nil || sm.Record.ID != "u-1" || len(sm.Record.Seats) == 0 {
		t.Fatalf("a garbled read model: %v, SummaryErr %v, record %+v", err, sm.SummaryErr, sm.Record)
	}
	page, err := s.History(ctx, referee.HistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range page.Matches {
		ids = append(ids, it.ID)
	}
	if strings.Join(ids, ",") != "u-2,u-0" || !strings.Contains(logs.String(), "u-1") {
		t.Fatalf("history %v, log %q: want u-1 left out and logged", ids, logs.String())
	}
}
