package reviews

import "context"

// State says where match id's review stands, for the match's own view (docs/review.md,
// "In the match's view"): StatusNone when none was asked for, StatusRunning while it is
// queued or computed (here, or as the store says, by another instance or left by a stopped
// one), StatusDone, or StatusFailed. ok is false when the match cannot have a review now: it
// is live, or sealed (a duplicate round still being played), so that the view of such a match
// says nothing of one and a client offers none.
//
// It costs what the view itself costs nothing to know (the referee's published progress) and,
// for a finished match not being reviewed here, one read of the status by the reviews
// table's key, never the answer; it queues nothing and counts against no one's limits.
func (s *Service) State(ctx context.Context, id string) (st Status, ok bool, err error) {
	_, finished, err := s.matches.Progress(ctx, id)
	if err != nil || !finished {
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
