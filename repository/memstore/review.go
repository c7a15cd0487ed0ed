package memstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/reviews"
)

// reviewKey names a stored review: one per match and method.
type reviewKey struct {
	match, method string
}

var _ reviews.Store = (*Store)(nil)

// Review returns the review stored for (id, method); ok is false when there is none.
func (s *Store) Review(ctx context.Context, id, method string) (reviews.Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return reviews.Record{}, false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, ok := s.reviews[reviewKey{id, method}]
	return copyReview(rec), ok, nil
}

// ReviewStatus returns the status of the review stored for (id, method), without its answer.
func (s *Store) ReviewStatus(ctx context.Context, id, method string) (reviews.Status, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, ok := s.reviews[reviewKey{id, method}]
	return rec.Status, ok, nil
}

// StartReview records the review of (id, method) as running unless it is done
// (reviews.Store).
func (s *Store) StartReview(ctx context.Context, id, method string, at time.Time) (reviews.Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return reviews.Record{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.hasMatch(id); err != nil {
		return reviews.Record{}, false, err
	}
	k := reviewKey{id, method}
	if old, ok := s.reviews[k]; ok && old.Status == reviews.StatusDone {
		return copyReview(old), false, nil
	}
	rec := reviews.Record{MatchID: id, Method: method, Status: reviews.StatusRunning, RequestedAt: at.UTC()}
	s.putReview(k, rec)
	return rec, true, nil
}

// FinishReview stores a review's outcome unless it is done (reviews.Store).
func (s *Store) FinishReview(ctx context.Context, rec reviews.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rec.Status != reviews.StatusDone && rec.Status != reviews.StatusFailed {
		return fmt.Errorf("finish review of %s: status %q is no outcome", rec.MatchID, rec.Status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.hasMatch(rec.MatchID); err != nil {
		return err
	}
	k := reviewKey{rec.MatchID, rec.Method}
	old, ok := s.reviews[k]
	switch {
	case ok && old.Status == reviews.StatusDone:
		return nil
	case ok:
		rec.RequestedAt = old.RequestedAt
	case rec.RequestedAt.IsZero():
		rec.RequestedAt = rec.FinishedAt
	}
	rec.RequestedAt, rec.FinishedAt = rec.RequestedAt.UTC(), rec.FinishedAt.UTC()
	if rec.Status != reviews.StatusDone {
		rec.Result = nil
	} else {
		rec.Code = ""
	}
	s.putReview(k, copyReview(rec))
	return nil
}

// hasMatch is nil when match id is stored; the caller holds mu.
func (s *Store) hasMatch(id string) error {
	if _, ok := s.matches[id]; !ok {
		return fmt.Errorf("match %q: %w", id, domain.ErrMatchNotFound)
	}
	return nil
}

// putReview stores rec under k; the caller holds mu for writing.
func (s *Store) putReview(k reviewKey, rec reviews.Record) {
	if s.reviews == nil {
		s.reviews = map[reviewKey]reviews.Record{}
	}
	s.reviews[k] = rec
}

// copyReview is rec with a result of its own, so that no caller shares the stored bytes.
func copyReview(rec reviews.Record) reviews.Record {
	rec.Result = slices.Clone(rec.Result)
	return rec
}
