package sqlite

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Create stores a new match: its matches row (seed and read model), its seats and its opening
// events, in one transaction, refused when it is a challenge beyond rec.ChallengeCap. An id already stored is a *domain.VersionConflictError with
// Expected 0: creating is appending to an empty log, and the same race rules apply.
func (s *Store) Create(ctx context.Context, rec referee.MatchRecord, events []domain.Event, sum domain.Summary) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "create match %s", rec.ID)
	c, err := sqlrow.NewCreation(rec, events, sum)
	if err != nil {
		return err
	}
	// Creates pause the checkpointer's last step like batches do, and count towards the
	// next checkpoint (checkpoint.go): else a long run of creates alone grows the WAL unbounded.
	s.writing.Lock()
	defer s.writing.Unlock()
	err = s.w.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if cur, found, err := sqlrow.HeadOf(tx, rec.ID); err != nil || found {
			if err == nil {
				err = &domain.VersionConflictError{Expected: 0, Current: cur.Seq}
			}
			return err
		}
		// The one writer runs one create at a time: no other can pass the cap meanwhile.
		if err := sqlrow.CheckChallenges(tx, rec); err != nil {
			return err
		}
		if err := tx.Create(&c.Match).Error; err != nil {
			return err
		}
		if len(c.Seats) > 0 {
			if err := tx.Create(&c.Seats).Error; err != nil {
				return err
			}
		}
		return tx.Create(&c.Events).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		// Unreachable while the existence check runs under the write lock; kept so that a
		// lost race can never surface as a raw constraint error.
		return &domain.VersionConflictError{Expected: 0, Current: s.version(ctx, rec.ID)}
	}
	if err == nil {
		s.ck.committed()
		last := c.Events[len(c.Events)-1]
		s.heads.put(rec.ID, sqlrow.Head{Seq: last.Seq, Hash: last.Hash})
	}
	return err
}

// Append adds a.Events after a.Expected with the read model and the idempotency record. The
// events are encoded here, in the caller's goroutine; the committer then writes them in the
// next group commit (commit.go), under their own savepoint, and Append returns once that
// commit is durable or the append has failed.
func (s *Store) Append(ctx context.Context, a referee.Append) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "append to %s at %d", a.MatchID, a.Expected)
	rows, m, err := sqlrow.EncodeAppend(a)
	if err != nil {
		return err
	}
	w := &appendWrite{
		id: a.MatchID, expected: a.Expected, events: a.Events, rows: rows, model: m,
		update: shapeOf(a.Summary, a.Events), idem: sqlrow.IdempotencyRowOf(a, len(rows)),
	}
	for _, st := range a.Seats {
		w.seats = append(w.seats, sqlrow.SeatRowOf(a.MatchID, st))
	}
	return s.gc.submit(ctx, w)
}

// version reads a match's version through the read pool, for error reports after a failed
// transaction; 0 when it cannot tell.
func (s *Store) version(ctx context.Context, id string) int {
	h, _, err := sqlrow.HeadOf(s.r.WithContext(ctx), id)
	if err != nil {
		return 0
	}
	return h.Seq
}
