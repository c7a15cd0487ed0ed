package memstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/reviewer"
)

// reviewKey names a stored review: one per match and method.
type reviewKey struct {
	match, method string
}

var _ reviewer.Store = (*Store)(nil)

// Review returns the review stored for (id, method); ok is false when there is none.
func (s *Store) Review(ctx context.Context, id, method string) (reviewer.Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return reviewer.Record{}, false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, ok := s.reviews[reviewKey{id, method}]
	return copyReview(rec), ok, nil
}

// StartReview records the review of (id, method) as running unless it is done
// (reviewer.Store).
func (s *Store) StartReview(ctx context.Context, id, method string, at time.Time) (reviewer.Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return reviewer.Record{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.hasMatch(id); err != nil {
		return reviewer.Record{}, false, err
	}
	k := reviewKey{id, method}
	if old, ok := s.reviews[k]; ok && old.Status == reviewer.StatusDone {
		return copyReview(old), false, nil
	}
	rec := reviewer.Record{MatchID: id, Method: method, Status: reviewer.StatusRunning, RequestedAt: at.UTC()}
	s.putReview(k, rec)
	return rec, true, nil
}

// FinishReview stores a review's outcome unless it is done (reviewer.Store).
func (s *Store) FinishReview(ctx context.Context, rec reviewer.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rec.Status != reviewer.StatusDone && rec.Status != reviewer.StatusFailed {
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
	case ok && old.Status == reviewer.StatusDone:
		return nil
	case ok:
		rec.RequestedAt = old.RequestedAt
	case rec.RequestedAt.IsZero():
		rec.RequestedAt = rec.FinishedAt
	}
	rec.RequestedAt, rec.FinishedAt = rec.RequestedAt.UTC(), rec.FinishedAt.UTC()
	if rec.Status != reviewer.StatusDone {
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
func (s *Store) putReview(k reviewKey, rec reviewer.Record) {
	if s.reviews == nil {
		s.reviews = map[reviewKey]reviewer.Record{}
	}
	s.reviews[k] = rec
}

// copyReview is rec with a result of its own, so that no caller shares the stored bytes.
func copyReview(rec reviewer.Record) reviewer.Record {
	rec.Result = slices.Clone(rec.Result)
	return rec
}
