package api_test

import (
	"database/sql"
	"encoding/json"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// tamperer changes a match's rows in the SQLite file with plain SQL, as anyone with write
// access to the file could, the append-only triggers dropped first.
type tamperer struct {
	t  *testing.T
	db *sql.DB
}

func newTamperer(t *testing.T, path string) *tamperer {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tp := &tamperer{t: t, db: db}
	tp.exec("DROP TRIGGER events_no_update")
	tp.exec("DROP TRIGGER events_no_delete")
	return tp
}

func (tp *tamperer) exec(q string, args ...any) {
	tp.t.Helper()
	if _, err := tp.db.Exec(q, args...); err != nil {
		tp.t.Fatalf("%s: %v", q, err)
	}
}

func (tp *tamperer) row(id string, seq int) (typ, data string) {
	tp.t.Helper()
	if err := tp.db.QueryRow("SELECT type, data FROM events WHERE match_id = ? AND seq = ?", id, seq).Scan(&typ, &data); err != nil {
		tp.t.Fatal(err)
	}
	return typ, data
}

func (tp *tamperer) setRow(id string, seq int, typ, data string) {
	tp.t.Helper()
	tp.exec("UPDATE events SET type = ?, data = ? WHERE match_id = ? AND seq = ?", typ, data, id, seq)
}

// rehash recomputes every link from seq on, as a careful tamperer would, so that the hash
// chain holds and only the other checks can tell.
func (tp *tamperer) rehash(id string, from int) {
	tp.t.Helper()
	var prev []byte
	if from > 1 {
		if err := tp.db.QueryRow("SELECT hash FROM events WHERE match_id = ? AND seq = ?", id, from-1).Scan(&prev); err != nil {
			tp.t.Fatal(err)
		}
	}
	rows, err := tp.db.Query("SELECT seq, type, data FROM events WHERE match_id = ? AND seq >= ? ORDER BY seq", id, from)
	if err != nil {
		tp.t.Fatal(err)
	}
	type row struct {
		seq       int
		typ, data string
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.seq, &r.typ, &r.data); err != nil {
			tp.t.Fatal(err)
		}
		all = append(all, r)
	}
	if err := rows.Close(); err != nil {
		tp.t.Fatal(err)
	}
	for _, r := range all {
		hash := audit.ChainHash(prev, r.seq, domain.EventType(r.typ), []byte(r.data))
		tp.exec("UPDATE events SET prev_hash = ?, hash = ? WHERE match_id = ? AND seq = ?", prev, hash, id, r.seq)
		prev = hash
	}
}

// editJSON changes one field of an event's data.
func editJSON(t *testing.T, data, field string, value any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatal(err)
	}
	m[field] = value
	return jsonOf(t, m)
}

// firstPlays returns the seq of the first tile.played that follows another tile.played.
func firstPlays(t *testing.T, log []domain.Event) int {
	t.Helper()
	for i := 1; i < len(log); i++ {
		a, okA := log[i-1].Data.(domain.TilePlayed)
		b, okB := log[i].Data.(domain.TilePlayed)
		if okA && okB && a.Seat != b.Seat && i > 3 {
			return log[i-1].Seq
		}
	}
	t.Fatal("no two plays in a row")
	return 0
}
