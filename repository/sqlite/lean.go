package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository"
	"github.com/allfives/allfives/repository/sqlrow"
)

// The lean append: the statements of an append are prepared once on the writer connection and
// run through database/sql, and the version check is the read-model UPDATE's own
// `WHERE version = ?` guard instead of a SELECT of the log's head. The head's hash, which the
// chain needs, comes from heads, the hashes of the heads this store last wrote; the hash of
// seq N never changes once committed, so a remembered hash is right whenever the guard says
// the log is at N. Another process writing the same file cannot fool this: the guard reads
// the version under the write lock, and the events' primary key catches any clash.
//
// "Prepared once" holds for database/sql, which skips gorm and keeps one statement object per
// SQL text; the driver (glebarez/go-sqlite, as of v1.23.0) still compiles the SQL on every
// execution, having no statement cache of its own: a CPU profile of `allfives bench` at
// sync=full had about a quarter of the committer's CPU in sqlite3_prepare_v2. Writing a whole
// batch in fewer statements (one guarded UPDATE per append, then one multi-row INSERT for all
// their events) was tried and left out: against this code, at sync=full, it changed neither
// moves per second (2,676 against 2,688, and 2,570 against 2,541) nor the CPU per move.

// SQL of the hot statements.
const (
	sqlVersion     = "SELECT version FROM matches WHERE id = ?"
	sqlHashAt      = "SELECT hash FROM events WHERE match_id = ? AND seq = ?"
	sqlInsertEvent = "INSERT INTO events (match_id, seq, type, data, at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"
	sqlInsertKey   = "INSERT INTO idempotency_keys (match_id, key, seat, fingerprint, first_seq, last_seq, created_at) " +
		"VALUES (?, ?, ?, ?, ?, ?, ?)"
	sqlUpdateSeat = "UPDATE seats SET name = ?, kind = ?, bot = ?, token_hash = ?, invite_hash = ? " +
		"WHERE match_id = ? AND seat = ?"
	sqlSavepoint = "SAVEPOINT one_append"
	sqlRelease   = "RELEASE one_append"
	sqlRollback  = "ROLLBACK TO one_append"
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

// hotSQL is every statement the committer runs: the fixed ones and the read-model update of
// every shape updateColumns makes.
var hotSQL = func() []string {
	qs := []string{sqlVersion, sqlHashAt, sqlInsertEvent, sqlInsertKey, sqlUpdateSeat, sqlSavepoint, sqlRelease, sqlRollback}
	for _, status := range []bool{false, true} {
		for _, seats := range []bool{false, true} {
			for _, clock := range []bool{false, true} {
				qs = append(qs, updateSQL(sqlrow.UpdateColumns(status, seats, clock)))
			}
		}
	}
	return qs
}()

// statements prepares the hot statements once, on first use (after the migrations have made
// the tables); only the committer calls it.
func (s *Store) statements(ctx context.Context) (map[string]*sql.Stmt, error) {
	if s.prepared != nil {
		return s.prepared, nil
	}
	st := make(map[string]*sql.Stmt, len(hotSQL))
	for _, q := range hotSQL {
		p, err := s.wdb.PrepareContext(ctx, q)
		if err != nil {
			for _, p := range st {
				p.Close()
			}
			return nil, fmt.Errorf("prepare %q: %w", q, err)
		}
		st[q] = p
	}
	s.prepared = st
	return st, nil
}

// bound is the prepared statements as used in one transaction, each bound on first use.
type bound struct {
	ctx   context.Context
	tx    *sql.Tx
	st    map[string]*sql.Stmt
	inTx  map[string]*sql.Stmt
	trans gorm.ErrorTranslator
}

func bind(ctx context.Context, tx *sql.Tx, st map[string]*sql.Stmt, trans gorm.ErrorTranslator) *bound {
	return &bound{ctx: ctx, tx: tx, st: st, inTx: make(map[string]*sql.Stmt, len(st)), trans: trans}
}

// exec runs prepared statement q in the transaction. Statements bound to a transaction are
// closed with it.
func (b *bound) stmt(q string) *sql.Stmt {
	s := b.inTx[q]
	if s == nil {
		s = b.tx.StmtContext(b.ctx, b.st[q])
		b.inTx[q] = s
	}
	return s
}

func (b *bound) exec(q string, args ...any) (sql.Result, error) {
	if b.st[q] == nil {
		return nil, fmt.Errorf("sqlite: statement not prepared: %s", q)
	}
	res, err := b.stmt(q).ExecContext(b.ctx, args...)
	if err != nil {
		return nil, b.trans.Translate(err)
	}
	return res, nil
}

// savepoint runs f under a savepoint, undoing what it wrote when it fails.
func (b *bound) savepoint(f func() error) error {
	if _, err := b.exec(sqlSavepoint); err != nil {
		return err
	}
	ferr := f()
	if ferr != nil {
		if _, err := b.exec(sqlRollback); err != nil {
			return errors.Join(ferr, err)
		}
	}
	if _, err := b.exec(sqlRelease); err != nil {
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
	cols     []string         // the read-model columns to write (sqlrow.AppendColumns)
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
	args := make([]any, 0, len(w.cols)+2)
	for _, c := range w.cols {
		args = append(args, w.model.Column(c))
	}
	res, err := b.exec(updateSQL(w.cols), append(args, w.id, w.expected)...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.Join(err, b.whyNot(w))
	}
	if err := repository.StartsAt(w.events, w.expected); err != nil {
		return err
	}
	prev, ok := s.heads.get(w.id, w.expected)
	if !ok {
		if err := b.stmt(sqlHashAt).QueryRowContext(b.ctx, w.id, w.expected).Scan(&prev); err != nil {
			return fmt.Errorf("hash of seq %d: %w", w.expected, err)
		}
	}
	sqlrow.Link(w.rows, w.events, prev)
	for _, r := range w.rows {
		if _, err := b.exec(sqlInsertEvent, r.MatchID, r.Seq, r.Type, r.Data, r.At, r.PrevHash, r.Hash); err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				// Unreachable behind the guard, but a clash on (match_id, seq) is by
				// definition a lost race: report it as one, never as a constraint error.
				return &domain.VersionConflictError{Expected: w.expected, Current: r.Seq}
			}
			return err
		}
	}
	for _, st := range w.seats {
		res, err := b.exec(sqlUpdateSeat, st.Name, st.Kind, st.Bot, st.TokenHash, st.InviteHash, st.MatchID, st.Seat)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errors.Join(err, fmt.Errorf("match %s has no seat %d", w.id, st.Seat))
		}
	}
	if k := w.idem; k != nil {
		_, err := b.exec(sqlInsertKey, k.MatchID, k.Key, k.Seat, k.Fingerprint, k.FirstSeq, k.LastSeq, k.CreatedAt)
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return fmt.Errorf("%w: key %q is already recorded for match %s", domain.ErrIdempotencyReuse, k.Key, w.id)
		}
		return err
	}
	return nil
}

// whyNot explains a guard that matched no row: no such match, or another version.
func (b *bound) whyNot(w *appendWrite) error {
	var v int
	err := b.stmt(sqlVersion).QueryRowContext(b.ctx, w.id).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("append to %q: %w", w.id, domain.ErrMatchNotFound)
	case err != nil:
		return err
	}
	return &domain.VersionConflictError{Expected: w.expected, Current: v}
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
