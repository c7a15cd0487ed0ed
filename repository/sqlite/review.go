package sqlite

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Reviews are derived data in a table of their own (sqlrow.ReviewRow): reads go through the
// read pool, writes through the writer like creates, under Store.writing.

var _ reviews.Store = (*Store)(nil)

// Review returns the review stored for (id, method); ok is false when there is none.
func (s *Store) Review(ctx context.Context, id, method string) (_ reviews.Record, _ bool, err error) {
	defer s.read(&err)
	defer domain.Wrap(&err, "review of %s", id)
	return sqlrow.Review(s.r.WithContext(ctx), id, method)
}

// ReviewStatus returns the status of the review stored for (id, method), without its answer.
func (s *Store) ReviewStatus(ctx context.Context, id, method string) (_ reviews.Status, _ bool, err error) {
	defer s.read(&err)
	defer domain.Wrap(&err, "review status of %s", id)
	return sqlrow.ReviewStatus(s.r.WithContext(ctx), id, method)
}

// StartReview records the review of (id, method) as running unless it is done
// (reviews.Store).
func (s *Store) StartReview(ctx context.Context, id, method string, at time.Time) (rec reviews.Record, started bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "start review of %s", id)
	err = s.writeTx(ctx, func(tx *gorm.DB) error {
		rec, started, err = sqlrow.StartReview(tx, id, method, at)
		return err
	})
	return rec, started, err
}

// FinishReview stores a review's outcome unless it is done (reviews.Store).
func (s *Store) FinishReview(ctx context.Context, rec reviews.Record) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "finish review of %s", rec.MatchID)
	return s.writeTx(ctx, func(tx *gorm.DB) error { return sqlrow.FinishReview(tx, rec) })
}

// writeTx runs fn in one write transaction on the writer, which creates share, and counts it
// towards the next checkpoint as they do (checkpoint.go).
func (s *Store) writeTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	s.writing.Lock()
	defer s.writing.Unlock()
	if err := s.w.WithContext(ctx).Transaction(fn); err != nil {
		return err
	}
	s.ck.committed()
	return nil
}
