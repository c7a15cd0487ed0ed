package domain

import (
	"context"
	"fmt"
)

// ReplayStep returns event step (1-based) of a match's log and the match as v may see it right
// after that event. events must hold at least the first step events, from seq 1; finished says
// whether the match's whole log has ended, which decides what v may see (DESIGN 4: a finished
// match hides nothing, a live one shows only what v may know now). A past state never shows
// more than the present one does, so a live match replays under the same redaction as its
// events.
func ReplayStep(id string, events []Event, step int, finished bool, v Viewer) (Event, MatchView, error) {
	if step < 1 || step > len(events) {
		return Event{}, MatchView{}, invalidf("step must be 1 to %d, not %d", len(events), step)
	}
	// A prefix folds without the seed: dealing needs it only when a command is decided.
	m, err := Rebuild(id, Seed{}, events[:step])
	if err != nil {
		return Event{}, MatchView{}, fmt.Errorf("replay %s to step %d: %w", id, step, err)
	}
	if finished {
		v = v.Opened()
	}
	return v.Redact(events[step-1], finished), m.View(v), nil
}

// Replay returns event step (1 to the match's version) and the match as v may see it right
// after that event. A finished match shows everything; a live one only what v may see now.
func (s *MatchService) Replay(ctx context.Context, id string, v Viewer, step int) (Event, MatchView, error) {
	version, finished, err := s.status(ctx, id)
	if err != nil {
		return Event{}, MatchView{}, err
	}
	if step < 1 || step > version {
		return Event{}, MatchView{}, invalidf("step must be 1 to %d (the match's version), not %d", version, step)
	}
	events, err := s.store.Events(ctx, id, 0, step)
	if err != nil {
		return Event{}, MatchView{}, err
	}
	return ReplayStep(id, events, step, finished, v)
}

// status returns the match's version and whether it has finished.
func (s *MatchService) status(ctx context.Context, id string) (version int, finished bool, err error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return 0, false, err
	}
	defer s.release(e)
	return e.match.version, e.match.finished, nil
}
