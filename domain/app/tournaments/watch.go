package tournaments

import (
	"context"
	"time"
)

// Run drives the tournaments until ctx ends: it hears every match that moves (the referee's
// WatchAll, which covers other instances' appends once they follow the store), advances the
// tournament of a table's match once that match has ended, and every interval sweeps the
// tournaments due (running, or upcoming past their start time), so that a restart, a missed
// announcement or a start time is caught up.
func (s *Service) Run(ctx context.Context, interval time.Duration) {
	cancel := s.matches.WatchAll(func(id string) {
		select {
		case s.kick <- id:
		default: // full: the next sweep catches up
		}
	})
	defer cancel()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	s.Sweep(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.Sweep(ctx)
		case id := <-s.kick:
			if id == "" {
				s.Sweep(ctx)
				continue
			}
			s.mu.Lock()
			tid, ok := s.tables[id]
			s.mu.Unlock()
			if !ok {
				continue
			}
			if _, finished, err := s.matches.Progress(ctx, id); err != nil || !finished {
				continue
			}
			if err := s.Advance(ctx, tid); err != nil && ctx.Err() == nil {
				s.log.Warn("advance tournament", "tournament", tid, "err", err)
			}
		}
	}
}

// Sweep advances every tournament due now, and reports how many it looked at.
func (s *Service) Sweep(ctx context.Context) int {
	ids, err := s.store.DueTournaments(ctx, s.clock.Now())
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("sweep tournaments", "err", err)
		}
		return 0
	}
	for _, id := range ids {
		if err := s.Advance(ctx, id); err != nil && ctx.Err() == nil {
			s.log.Warn("advance tournament", "tournament", id, "err", err)
		}
	}
	return len(ids)
}
