package sqlite

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ seeks.Store = (*Store)(nil)

// PutSeek stores a new seek on the writer; a live seek of the same player and format (the
// unique index seeks_one) is seeks.ErrAlreadySeeking.
func (s *Store) PutSeek(ctx context.Context, r seeks.Record) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "store a seek")
	s.writing.Lock()
	defer s.writing.Unlock()
	err = sqlrow.PutSeek(s.w.WithContext(ctx), r)
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return seeks.ErrAlreadySeeking
	}
	return err
}

// Seek reads seek id.
func (s *Store) Seek(ctx context.Context, id string) (_ seeks.Record, _ bool, err error) {
	defer s.read(&err)
	got, err := sqlrow.Seeks(ctx, s.r, "id = ?", id)
	if err != nil || len(got) == 0 {
		return seeks.Record{}, false, err
	}
	return got[0], true, nil
}

// CancelSeek cancels seek id if it searches and reads it back, on the writer.
func (s *Store) CancelSeek(ctx context.Context, id string, now time.Time, reason string) (_ seeks.Record, _ bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "cancel a seek")
	s.writing.Lock()
	defer s.writing.Unlock()
	db := s.w.WithContext(ctx)
	if err := sqlrow.CancelSeek(db, id, now, reason); err != nil {
		return seeks.Record{}, false, err
	}
	got, err := sqlrow.Seeks(ctx, s.w, "id = ?", id)
	if err != nil || len(got) == 0 {
		return seeks.Record{}, false, err
	}
	return got[0], true, nil
}

// CancelSeeksOf cancels the searching seeks of player.
func (s *Store) CancelSeeksOf(ctx context.Context, player string, now time.Time, reason string) (_ int, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "cancel a player's seeks")
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.CancelSeeksOf(s.w.WithContext(ctx), player, now, reason)
}

// ExpireSeeks expires the searching seeks due at now.
func (s *Store) ExpireSeeks(ctx context.Context, now time.Time) (_ int, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "expire seeks")
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.ExpireSeeks(s.w.WithContext(ctx), now)
}

// SearchingSeeks reads up to limit searching seeks, oldest first.
func (s *Store) SearchingSeeks(ctx context.Context, limit int) (_ []seeks.Record, err error) {
	defer s.read(&err)
	return sqlrow.Seeks(ctx, s.r, "status = 'searching' ORDER BY created_at, id LIMIT ?", limit)
}

// SearchingSince reads up to limit searching seeks created at or after since, oldest first.
func (s *Store) SearchingSince(ctx context.Context, since time.Time, limit int) (_ []seeks.Record, err error) {
	defer s.read(&err)
	return sqlrow.Seeks(ctx, s.r, "status = 'searching' AND created_at >= ? ORDER BY created_at, id LIMIT ?", since.UnixNano(), limit)
}

// ClaimSeeks claims the seeks of claims for match in one IMMEDIATE transaction on the writer.
func (s *Store) ClaimSeeks(ctx context.Context, match string, claims []seeks.Claim, now time.Time) (ok bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "claim seeks")
	s.writing.Lock()
	defer s.writing.Unlock()
	tx := s.w.WithContext(ctx).Begin()
	if tx.Error != nil {
		return false, tx.Error
	}
	defer tx.Rollback()
	if ok, err := sqlrow.ClaimSeeks(tx, match, claims, now); err != nil || !ok {
		return false, err
	}
	return true, tx.Commit().Error
}

// SettleSeeks ends the pairing seeks of match.
func (s *Store) SettleSeeks(ctx context.Context, match string, matched bool) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "settle seeks")
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.SettleSeeks(s.w.WithContext(ctx), match, matched)
}

// PairingSince reads the seeks pairing since before or earlier.
func (s *Store) PairingSince(ctx context.Context, before time.Time) (_ []seeks.Record, err error) {
	defer s.read(&err)
	return sqlrow.Seeks(ctx, s.r, "status = 'pairing' AND ended_at <= ? ORDER BY match_id", before.UnixNano())
}

// SeekOfMatch is player's seek claimed for match.
func (s *Store) SeekOfMatch(ctx context.Context, player, match string) (_ string, _ bool, err error) {
	defer s.read(&err)
	got, err := sqlrow.Seeks(ctx, s.r, "match_id = ? AND player_id = ?", match, player)
	if err != nil || len(got) == 0 {
		return "", false, err
	}
	return got[0].ID, true, nil
}

// Matching runs fn at once: an embedded store has one process, whose matcher is the only one.
// Two processes on one file (a second `allfives serve`, against the docs) would still claim
// each seek at most once: claims are transactions on the one writer.
func (s *Store) Matching(ctx context.Context, fn func(ctx context.Context) error) (bool, error) {
	return true, fn(ctx)
}
