package postgres

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Reviews are derived data in a table of their own (sqlrow.ReviewRow), shared by every
// instance: the upserts settle two instances finishing one review (the same bytes, since the
// engine is deterministic), and a done review is never written again.

var _ reviews.Store = (*Store)(nil)

// Review returns the review stored for (id, method); ok is false when there is none.
func (s *Store) Review(ctx context.Context, id, method string) (_ reviews.Record, _ bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "review of %s", id)
	return sqlrow.Review(s.db.WithContext(ctx), id, method)
}

// ReviewStatus returns the status of the review stored for (id, method), without its answer.
func (s *Store) ReviewStatus(ctx context.Context, id, method string) (_ reviews.Status, _ bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "review status of %s", id)
	return sqlrow.ReviewStatus(s.db.WithContext(ctx), id, method)
}

// StartReview records the review of (id, method) as running unless it is done
// (reviews.Store).
func (s *Store) StartReview(ctx context.Context, id, method string, at time.Time) (rec reviews.Record, started bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "start review of %s", id)
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		rec, started, err = sqlrow.StartReview(tx, id, method, at)
		return err
	})
	return rec, started, err
}

// FinishReview stores a review's outcome unless it is done (reviews.Store).
func (s *Store) FinishReview(ctx context.Context, rec reviews.Record) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "finish review of %s", rec.MatchID)
	return s.inTx(ctx, func(tx *gorm.DB) error { return sqlrow.FinishReview(tx, rec) })
}
