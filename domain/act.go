package domain

import (
	"context"
	"errors"
	"fmt"
)

// ActRequest is one move by the caller's seat. ExpectedVersion, when positive, must equal the
// match's version (HTTP If-Match). IdempotencyKey, when set, makes a retry return the first
// answer instead of moving again.
type ActRequest struct {
	Move            Move
	ExpectedVersion int
	IdempotencyKey  string
}

// ActResult is the events the move caused (bots' included) and the match after them, both as
// the caller may see them. Replayed says the answer came from an earlier request with the
// same Idempotency-Key.
type ActResult struct {
	Events   []Event
	Match    MatchView
	Replayed bool
}

// Act runs a move for the viewer's seat, then bot turns until a human is to move or the match
// ends, and stores every resulting event in one append. A move that asked for no particular
// version and lost a race to another copy of the match (one evicted from the cache while in
// use, or another process) is tried once more on the match as stored.
func (s *MatchService) Act(ctx context.Context, id string, v Viewer, req ActRequest) (ActResult, error) {
	seat, ok := v.Seat()
	if !ok {
		return ActResult{}, ErrUnauthorized
	}
	res, err := s.act(ctx, id, v, seat, req)
	if req.ExpectedVersion == 0 && errors.Is(err, ErrVersionConflict) {
		res, err = s.act(ctx, id, v, seat, req)
	}
	return res, err
}

func (s *MatchService) act(ctx context.Context, id string, v Viewer, seat int, req ActRequest) (ActResult, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return ActResult{}, err
	}
	defer s.release(e)
	fp := fingerprint(seat, req.Move)
	if req.IdempotencyKey != "" {
		rec, found, err := s.store.Idempotency(ctx, id, req.IdempotencyKey)
		if err != nil {
			return ActResult{}, err
		}
		if found {
			if rec.Seat != seat || rec.Fingerprint != fp {
				return ActResult{}, ErrIdempotencyReuse
			}
			return s.replayAnswer(ctx, e, v, rec)
		}
	}
	m := e.match
	if req.ExpectedVersion > 0 && req.ExpectedVersion != m.version {
		return ActResult{}, &VersionConflictError{Expected: req.ExpectedVersion, Current: m.version}
	}
	now := s.clock.Now()
	work := m.clone()
	events, err := work.Execute(seat, req.Move, now)
	if err != nil {
		return ActResult{}, err
	}
	more, err := s.runBots(ctx, work)
	if err != nil {
		return ActResult{}, err
	}
	events = append(events, more...)
	a := Append{MatchID: id, Expected: m.version, Events: events, Summary: work.Summary()}
	if req.IdempotencyKey != "" {
		a.Idempotency = &IdempotencyRecord{
			Key: req.IdempotencyKey, Seat: seat, Fingerprint: fp,
			FirstSeq: events[0].Seq, LastSeq: events[len(events)-1].Seq, CreatedAt: now,
		}
	}
	if err := s.store.Append(ctx, a); err != nil {
		if errors.Is(err, ErrVersionConflict) {
			// Another writer got there first: this copy is stale. Forget it, unless the cache
			// already holds a newer one.
			s.cache.drop(e)
		}
		return ActResult{}, err
	}
	e.set(work)
	s.watch.wake(id)
	return ActResult{Events: v.RedactAll(events, work.finished), Match: work.View(v)}, nil
}

// replayAnswer rebuilds the answer an earlier keyed request got: its events and the match as
// it stood right after them.
func (s *MatchService) replayAnswer(ctx context.Context, e *entry, v Viewer, rec IdempotencyRecord) (ActResult, error) {
	events, err := s.store.Events(ctx, e.match.id, 0, rec.LastSeq)
	if err != nil {
		return ActResult{}, err
	}
	then, err := Rebuild(e.match.id, Seed{}, events)
	if err != nil {
		return ActResult{}, err
	}
	finished := e.match.finished
	return ActResult{
		Events:   v.RedactAll(events[rec.FirstSeq-1:], finished),
		Match:    then.View(v),
		Replayed: true,
	}, nil
}

// fingerprint names a move canonically, so "6-4" and "4-6" are the same request.
func fingerprint(seat int, mv Move) string {
	switch {
	case mv.Action != ActionPlay:
		return fmt.Sprintf("%d %s", seat, mv.Action)
	case mv.EndGiven:
		return fmt.Sprintf("%d play %s %s", seat, mv.Tile, mv.End)
	}
	return fmt.Sprintf("%d play %s", seat, mv.Tile)
}

// runBots lets bot seats act on m until a human is to move or the match ends.
func (s *MatchService) runBots(ctx context.Context, m *Match) ([]Event, error) {
	var out []Event
	for step := 0; !m.finished; step++ {
		seat := m.hand.turn
		p := m.info.Players[seat]
		if p.Kind != Bot {
			break
		}
		if step >= MaxBotSteps {
			return nil, fmt.Errorf("bots took more than %d steps", MaxBotSteps)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		events, err := s.botTurn(ctx, m, seat, p.Bot)
		if err != nil {
			return nil, err
		}
		out = append(out, events...)
	}
	return out, nil
}

// botTurn asks the seat's strategy for a move and executes it on m. A strategy that fails or
// answers an illegal move must not stall the match, so the seat then takes its first legal move.
func (s *MatchService) botTurn(ctx context.Context, m *Match, seat int, name string) ([]Event, error) {
	now := s.clock.Now()
	if strategy, ok := s.bots[name]; ok {
		if mv, err := strategy.Choose(ctx, m.SeatView(seat)); err == nil {
			if events, err := m.Execute(seat, mv, now); err == nil {
				return events, nil
			}
		}
	}
	legal := m.LegalMoves(seat)
	if len(legal) == 0 {
		return nil, fmt.Errorf("bot seat %d has no legal move", seat)
	}
	return m.Execute(seat, legal[0].Move(), now)
}
