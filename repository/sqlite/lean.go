package sqlite

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository"
	"github.com/allfives/allfives/repository/sqlrow"
)

// The lean append: the statements of an append are compiled once, on the committer's own
// connection (writerconn.go), and the version check is the read-model UPDATE's own
// `WHERE version = ?` guard instead of a SELECT of the log's head. The head's hash, which the
// chain needs, comes from heads, the hashes of the heads this store last wrote; the hash of
// seq N never changes once committed, so a remembered hash is right whenever the guard says
// the log is at N. Another process writing the same file cannot fool this: the guard reads
// the version under the write lock, and the events' primary key catches any clash.
//
// A batch is written one append's statements at a time, not as one multi-row INSERT for all
// its events: at sync=full the fsync, not the number of statements, is what a batch waits for,
// and fewer statements changed neither moves per second nor the CPU per move (the measurement:
// docs/decisions/003-durable-commit-stays-synchronous-full.md).

// SQL of the hot statements.
const (
	sqlVersion     = "SELECT version FROM matches WHERE id = ?"
	sqlHashAt      = "SELECT hash FROM events WHERE match_id = ? AND seq = ?"
	sqlInsertEvent = "INSERT INTO events (match_id, seq, type, data, at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"
	sqlInsertKey   = "INSERT INTO idempotency_keys (match_id, seat, key, fingerprint, first_seq, last_seq, created_at) " +
		"VALUES (?, ?, ?, ?, ?, ?, ?)"
	// player_id binds the seat to a player, and match_created_at goes with it (NULL with
	// NULL): the key of the index of a player's matches (migrations/sqlite/00005_players.sql).
	sqlUpdateSeat = "UPDATE seats SET name = ?, kind = ?, bot = ?, token_hash = ?, invite_hash = ?, player_id = ?, " +
		"match_created_at = CASE WHEN ? IS NULL THEN NULL ELSE (SELECT created_at FROM matches WHERE id = seats.match_id) END " +
		"WHERE match_id = ? AND seat = ?"
	sqlSavepoint = "SAVEPOINT one_append"
	sqlRelease   = "RELEASE one_append"
	sqlRollback  = "ROLLBACK TO one_append"
	sqlBegin     = "BEGIN IMMEDIATE" // take the write lock before reading the version to check
	sqlCommit    = "COMMIT"
	sqlAbort     = "ROLLBACK"
)

// updateSQL is the read-model UPDATE of cols, guarded by the version the append expects.
func updateSQL(cols []string) string {
	var b strings.Builder
	b.WriteString("UPDATE matches SET ")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + " = ?")
	}
	b.WriteString(" WHERE id = ? AND version = ?")
	return b.String()
}

// updateShape is one shape of the read-model UPDATE (sqlrow.UpdateColumns): its columns and
// its SQL, built once, so that an append names its statement without building it.
type updateShape struct {
	cols []string
	sql  string
}

// updateShapes holds every shape, by shapeIndex.
var updateShapes = func() (out [8]updateShape) {
	for i := range out {
		cols := sqlrow.UpdateColumns(i&1 != 0, i&2 != 0, i&4 != 0)
		out[i] = updateShape{cols: cols, sql: updateSQL(cols)}
	}
	return out
}()

// shapeOf is the update shape of an append of events leaving sum (sqlrow.AppendShape).
func shapeOf(sum domain.Summary, events []domain.Event) updateShape {
	status, seats, clock := sqlrow.AppendShape(sum, events)
	i := 0
	for bit, on := range []bool{status, seats, clock} {
		if on {
			i |= 1 << bit
		}
	}
	return updateShapes[i]
}

// bound runs the append's statements in the committer's transaction.
type bound struct {
	c *writerConn
}

// savepoint runs f under a savepoint, undoing what it wrote when it fails.
func (b *bound) savepoint(f func() error) error {
	if _, err := b.c.run(sqlSavepoint); err != nil {
		return err
	}
	ferr := f()
	if ferr != nil {
		if _, err := b.c.run(sqlRollback); err != nil {
			return errors.Join(ferr, err)
		}
	}
	if _, err := b.c.run(sqlRelease); err != nil {
		return errors.Join(ferr, err)
	}
	return ferr
}

// appendWrite is an append as encoded by its caller, ready for the committer.
type appendWrite struct {
	id       string
	expected int
	events   []domain.Event
	rows     []sqlrow.EventRow
	model    sqlrow.MatchRow
	update   updateShape      // the read-model columns to write (sqlrow.AppendColumns)
	seats    []sqlrow.SeatRow // seat records replaced by a join or a leave
	idem     *sqlrow.IdempotencyRow
}

// head is the last row's seq and hash, once linked.
func (w *appendWrite) head() sqlrow.Head {
	r := w.rows[len(w.rows)-1]
	return sqlrow.Head{Seq: r.Seq, Hash: r.Hash}
}

// append writes one append in the batch's transaction: the guarded read-model update (the
// version check), the linked events, the seat records a join or a leave replaces, the
// idempotency record.
func (b *bound) append(s *Store, w *appendWrite) error {
	args := make([]any, 0, len(w.update.cols)+2)
	for _, c := range w.update.cols {
		args = append(args, w.model.Column(c))
	}
	n, err := b.c.run(w.update.sql, append(args, w.id, w.expected)...)
	if err != nil {
		return err
	}
	if n != 1 {
		return b.whyNot(w)
	}
	if err := repository.StartsAt(w.events, w.expected); err != nil {
		return err
	}
	prev, ok := s.heads.get(w.id, w.expected)
	if !ok {
		var found bool
		if prev, found, err = b.c.queryBytes(sqlHashAt, w.id, w.expected); err != nil || !found {
			return errors.Join(fmt.Errorf("no hash of seq %d", w.expected), err)
		}
	}
	sqlrow.Link(w.rows, w.events, prev)
	for i := range w.rows {
		r := &w.rows[i]
		if err := b.c.insertEvent(r); err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				// Unreachable behind the guard, but a clash on (match_id, seq) is by
				// definition a lost race: report it as one, never as a constraint error.
				return &domain.VersionConflictError{Expected: w.expected, Current: r.Seq}
			}
			return err
		}
	}
	for _, st := range w.seats {
		var player any // NULL for an anonymous seat
		if st.PlayerID != nil {
			player = *st.PlayerID
		}
		n, err := b.c.run(sqlUpdateSeat, st.Name, st.Kind, st.Bot, st.TokenHash, st.InviteHash, player, player, st.MatchID, st.Seat)
		if err != nil {
			return err
		}
		if n != 1 {
			return fmt.Errorf("match %s has no seat %d", w.id, st.Seat)
		}
	}
	if k := w.idem; k != nil {
		_, err := b.c.run(sqlInsertKey, k.MatchID, k.Seat, k.Key, k.Fingerprint, k.FirstSeq, k.LastSeq, k.CreatedAt)
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			// The primary key is (match_id, seat, key): only this seat's own record clashes.
			return fmt.Errorf("%w: key %q is already recorded for seat %d of match %s", domain.ErrIdempotencyReuse, k.Key, k.Seat, w.id)
		}
		return err
	}
	return nil
}

// whyNot explains a guard that matched no row: no such match, or another version.
func (b *bound) whyNot(w *appendWrite) error {
	v, found, err := b.c.queryInt(sqlVersion, w.id)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("append to %q: %w", w.id, domain.ErrMatchNotFound)
	}
	return &domain.VersionConflictError{Expected: w.expected, Current: int(v)}
}

// maxHeads bounds the remembered heads; past it an arbitrary one is forgotten, which costs
// that match one indexed read on its next append.
const maxHeads = 1 << 16

// headCache remembers the head (seq and hash) of the logs this store last wrote.
type headCache struct {
	mu sync.Mutex
	m  map[string]sqlrow.Head
}

func (c *headCache) get(id string, seq int) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.m[id]
	if !ok || h.Seq != seq {
		return nil, false
	}
	return h.Hash, true
}

func (c *headCache) put(id string, h sqlrow.Head) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]sqlrow.Head)
	}
	if _, ok := c.m[id]; !ok && len(c.m) >= maxHeads {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[id] = h
}
