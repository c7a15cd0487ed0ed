package reviews

import (
	"context"
	"errors"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// The reads of a review: Get answers it as it stands (and queues again one left running by a
// stopped worker), State says only where it stands, for the match's own view.

// Get answers match id's review as it stands: done, running, or ErrNotRequested. A review
// stored as running that no worker here is computing was left by a stopped process (or is
// being computed by another instance): it is queued again, so that asking is enough to get it
// (docs/review.md, "API"). A failed review answers its problem.
func (s *Service) Get(ctx context.Context, id string) (Answer, error) {
	return s.GetBy(ctx, id, Asker{})
}

// GetBy is Get asked by who, whose limits a review it queues again counts against, as
// RequestBy's does.
func (s *Service) GetBy(ctx context.Context, id string, who Asker) (Answer, error) {
	rec, ok, busy, err := s.lookup(ctx, id)
	switch {
	case err != nil:
		return Answer{}, err
	case busy:
		return running, nil
	case !ok:
		return Answer{}, ErrNotRequested
	case rec.Status == StatusDone:
		return Answer{Status: StatusDone, Result: rec.Result}, nil
	case rec.Status == StatusFailed:
		return Answer{}, failure(rec)
	}
	return s.start(ctx, id, who)
}

// failure is the error a failed review answers.
func failure(rec Record) error {
	if rec.Code == storeerr.CodeRecordCorrupt {
		return &referee.CorruptError{MatchID: rec.MatchID}
	}
	return errors.New("the review of match " + rec.MatchID + " failed: " + string(rec.Code))
}

// State says where match id's review stands, for the match's own view (docs/review.md,
// "In the match's view"): StatusNone when none was asked for, StatusRunning while it is
// queued or computed (here, or as the store says, by another instance or left by a stopped
// one), StatusDone, or StatusFailed. ok is false when the match cannot have a review now: it
// is not finished (live, never dealt, cancelled, expired), or sealed (a duplicate round still
// being played), so that the view of such a match says nothing of one and a client offers
// none.
//
// It costs what the view itself costs nothing to know (the referee's published status) and,
// for a finished match not being reviewed here, one read of the status by the reviews
// table's key, never the answer; it queues nothing and counts against no one's limits.
func (s *Service) State(ctx context.Context, id string) (st Status, ok bool, err error) {
	status, err := s.matches.StatusOf(ctx, id)
	if err != nil || status != domain.StatusFinished {
		return "", false, err
	}
	// A view fails closed as the referee's does: a seal that cannot be read is a seal.
	if sl, isSealer := s.matches.(Sealer); isSealer {
		if sealed, err := sl.Sealed(ctx, id); err != nil || sealed {
			return "", false, nil
		}
	}
	if s.busyWith(id) {
		return StatusRunning, true, nil
	}
	st, stored, err := s.store.ReviewStatus(ctx, id, s.method)
	switch {
	case err != nil:
		return "", false, err
	case !stored:
		return StatusNone, true, nil
	}
	return st, true, nil
}

// Finished is nil for a match that may be reviewed and explored now, else why not: the seal
// first (domain.ErrMatchSealed), then the status (domain.ErrMatchNotFinished).
func (s *Service) Finished(ctx context.Context, id string) error { return s.finished(ctx, id) }
