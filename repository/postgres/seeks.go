package postgres

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ seeks.Store = (*Store)(nil)

// seeksLock is the key of the matcher's advisory lock (docs/matchmaking.md, "Exactly
// once"): "seeks" in ASCII, apart from the other locks' keys.
const seeksLock int64 = 0x7365656b73

// PutSeek stores a new seek; a live seek of the same player and format (the unique index
// seeks_one) is seeks.ErrAlreadySeeking.
func (s *Store) PutSeek(ctx context.Context, r seeks.Record) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "store a seek")
	err = sqlrow.PutSeek(s.db.WithContext(ctx), r)
	if sqlState(err) == codeUniqueViolation {
		return seeks.ErrAlreadySeeking
	}
	return err
}

// Seek reads seek id.
func (s *Store) Seek(ctx context.Context, id string) (_ seeks.Record, _ bool, err error) {
	defer classify(&err)
	got, err := sqlrow.Seeks(ctx, s.db, "id = ?", id)
	if err != nil || len(got) == 0 {
		return seeks.Record{}, false, err
	}
	return got[0], true, nil
}

// CancelSeek cancels seek id if it searches and reads it back: one UPDATE ... RETURNING would
// miss a seek that no longer searches, so the read follows in the same transaction.
func (s *Store) CancelSeek(ctx context.Context, id string, now time.Time, reason string) (out seeks.Record, found bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "cancel a seek")
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		if err := sqlrow.CancelSeek(tx, id, now, reason); err != nil {
			return err
		}
		got, err := sqlrow.Seeks(ctx, tx, "id = ?", id)
		if err == nil && len(got) > 0 {
			out, found = got[0], true
		}
		return err
	})
	return out, found, err
}

// CancelSeeksOf cancels the searching seeks of player.
func (s *Store) CancelSeeksOf(ctx context.Context, player string, now time.Time, reason string) (_ int, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "cancel a player's seeks")
	return sqlrow.CancelSeeksOf(s.db.WithContext(ctx), player, now, reason)
}

// ExpireSeeks expires the searching seeks due at now.
func (s *Store) ExpireSeeks(ctx context.Context, now time.Time) (_ int, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "expire seeks")
	return sqlrow.ExpireSeeks(s.db.WithContext(ctx), now)
}

// SearchingSeeks reads up to limit searching seeks, oldest first.
func (s *Store) SearchingSeeks(ctx context.Context, limit int) (_ []seeks.Record, err error) {
	defer classify(&err)
	return sqlrow.Seeks(ctx, s.db, "status = 'searching' ORDER BY created_at, id LIMIT ?", limit)
}

// SearchingSince reads up to limit searching seeks created at or after since, oldest first.
func (s *Store) SearchingSince(ctx context.Context, since time.Time, limit int) (_ []seeks.Record, err error) {
	defer classify(&err)
	return sqlrow.Seeks(ctx, s.db, "status = 'searching' AND created_at >= ? ORDER BY created_at, id LIMIT ?", since.UnixNano(), limit)
}

// ClaimSeeks claims the seeks of claims for match in one transaction. Each UPDATE holds its
// row until the commit; a concurrent claim of the same seek waits, then finds it no longer
// searching and rolls back whole.
func (s *Store) ClaimSeeks(ctx context.Context, match string, claims []seeks.Claim, now time.Time) (ok bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "claim seeks")
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		var cerr error
		if ok, cerr = sqlrow.ClaimSeeks(tx, match, claims, now); cerr != nil || !ok {
			ok = false
			return errRollback{cerr}
		}
		return nil
	})
	if rb, isRB := err.(errRollback); isRB {
		return false, rb.err
	}
	return ok, err
}

// errRollback ends a transaction that changed what it must not keep, carrying its error
// (nil: a claim that lost).
type errRollback struct{ err error }

func (e errRollback) Error() string {
	if e.err == nil {
		return "rolled back"
	}
	return e.err.Error()
}

// SettleSeeks ends the pairing seeks of match.
func (s *Store) SettleSeeks(ctx context.Context, match string, matched bool) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "settle seeks")
	return sqlrow.SettleSeeks(s.db.WithContext(ctx), match, matched)
}

// PairingSince reads the seeks pairing since before or earlier.
func (s *Store) PairingSince(ctx context.Context, before time.Time) (_ []seeks.Record, err error) {
	defer classify(&err)
	return sqlrow.Seeks(ctx, s.db, "status = 'pairing' AND ended_at <= ? ORDER BY match_id", before.UnixNano())
}

// SeekOfMatch is player's seek claimed for match.
func (s *Store) SeekOfMatch(ctx context.Context, player, match string) (_ string, _ bool, err error) {
	defer classify(&err)
	got, err := sqlrow.Seeks(ctx, s.db, "match_id = ? AND player_id = ?", match, player)
	if err != nil || len(got) == 0 {
		return "", false, err
	}
	return got[0].ID, true, nil
}

// Matching runs fn holding the matcher's advisory lock, if no other instance holds it: a
// transaction takes it with pg_try_advisory_xact_lock and keeps it open while fn pairs, so
// the lock ends with the commit, or with the connection when the instance dies, and the next
// pass of another instance takes it. It works through a pooler in transaction mode.
func (s *Store) Matching(ctx context.Context, fn func(ctx context.Context) error) (ran bool, err error) {
	defer classify(&err)
	tx := s.db.WithContext(ctx).Begin()
	if tx.Error != nil {
		return false, tx.Error
	}
	defer tx.Rollback()
	var locked bool
	if err := tx.Raw("SELECT pg_try_advisory_xact_lock(?)", seeksLock).Scan(&locked).Error; err != nil || !locked {
		return false, err
	}
	if err := fn(ctx); err != nil {
		return true, err
	}
	return true, tx.Commit().Error
}
