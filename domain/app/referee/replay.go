package referee

import (
	"context"

	"github.com/allfives/allfives/domain"
)

// Replay returns event step (1 to the match's version) and the match as v may see it right
// after that event. A match whose record is open (finished, or cancelled by its tournament
// after the deal) shows everything; a live one only what v may see now.
func (s *MatchService) Replay(ctx context.Context, id string, v domain.Viewer, step int) (domain.Event, domain.MatchView, error) {
	// The seal before the step's range, which names the match's version.
	v, err := s.sealForID(ctx, id, v, true)
	if err != nil {
		return domain.Event{}, domain.MatchView{}, err
	}
	version, open, err := s.status(ctx, id)
	if err != nil {
		return domain.Event{}, domain.MatchView{}, err
	}
	if step < 1 || step > version {
		return domain.Event{}, domain.MatchView{}, domain.Invalidf("step must be 1 to %d (the match's version), not %d", version, step)
	}
	events, err := s.store.Events(ctx, id, 0, step)
	if err != nil {
		return domain.Event{}, domain.MatchView{}, corrupt(id, err)
	}
	return domain.ReplayStep(id, events, step, open, v)
}

// status returns the match's version and whether its record is open: finished, or cancelled
// with its seed revealed (domain.Match.Revealed).
func (s *MatchService) status(ctx context.Context, id string) (version int, open bool, err error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return 0, false, err
	}
	defer s.release(e)
	return e.match.Version(), e.match.Revealed(), nil
}
