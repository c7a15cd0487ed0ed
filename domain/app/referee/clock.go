package referee

import (
	"context"
	"errors"
	"time"

	"github.com/allfives/allfives/domain"
)

// DefaultWaitingTTL is how long a waiting match may keep its open seats empty before it expires.
const DefaultWaitingTTL = 7 * 24 * time.Hour

// sweepBatch is how many due matches one Sweep asks the store for.
const sweepBatch = 100

// Sweep acts on every match the clock has made due (docs/design.md, "Seats, joining and the
// clock"): a human seat past its deadline has its turn played by the autoplay strategy
// (turn.timed_out, maybe seat.autoplay, the moves, then bots as usual), an offer (a rematch)
// past its deadline is cancelled (offer_expired), and a waiting match whose last event is
// older than the waiting TTL expires. It returns how many matches it
// changed. Several instances may sweep one store: each append carries the version it decided
// on, so of two sweepers acting on one deadline one append wins and the other, on re-reading,
// finds nothing due.
func (s *MatchService) Sweep(ctx context.Context) (int, error) {
	now := s.clock.Now()
	q := DueQuery{Now: now, Limit: sweepBatch}
	if s.waitingTTL > 0 {
		q.WaitingBefore = now.Add(-s.waitingTTL)
	}
	ids, err := s.store.Due(ctx, q)
	if err != nil {
		return 0, err
	}
	changed := 0
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return changed, err
		}
		did, err := s.sweepOne(ctx, id, q)
		switch {
		case errors.Is(err, domain.ErrVersionConflict):
			continue // another instance acted first; its append stands
		case err != nil:
			return changed, err
		case did:
			changed++
		}
	}
	return changed, nil
}

// sweepOne re-checks one listed match under its lock and acts if it is still due.
func (s *MatchService) sweepOne(ctx context.Context, id string, q DueQuery) (bool, error) {
	e, err := s.acquireFresh(ctx, id)
	if err != nil {
		return false, err
	}
	defer s.release(e)
	work := e.working()
	m := work.match
	var events []domain.Event
	if deadline, ok := m.Deadline(); ok && !q.Now.Before(deadline) {
		events, err = m.DecideTimeout(q.Now, work.hands, s.chooser(ctx))
	} else if offer, ok := m.OfferDeadline(); ok && !q.Now.Before(offer) {
		events, err = m.DecideOfferExpired(q.Now)
	} else if m.Status() == domain.StatusWaiting && !q.WaitingBefore.IsZero() && !m.UpdatedAt().After(q.WaitingBefore) {
		events, err = m.DecideExpire(q.Now)
	} else {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, s.commit(ctx, e, work, events)
}

// RunSweeper sweeps every interval until ctx ends. A failed sweep is reported to logf and
// tried again on the next tick: the clock must not stop for one bad match.
func (s *MatchService) RunSweeper(ctx context.Context, interval time.Duration, logf func(error)) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil && logf != nil {
				logf(err)
			}
		}
	}
}

// acquireFresh is acquire for a match another instance may have moved: when the store is ahead
// of the cached copy, the copy is dropped and the match read again, so the sweeper judges a
// deadline on the state the store holds.
func (s *MatchService) acquireFresh(ctx context.Context, id string) (*entry, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	stored, err := s.store.Match(ctx, id)
	if err != nil {
		s.release(e)
		return nil, err
	}
	if stored.Summary.Version == e.match.Version() {
		return e, nil
	}
	s.cache.drop(e)
	s.release(e)
	return s.acquire(ctx, id)
}
