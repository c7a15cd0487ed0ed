package reviews

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// Explore (docs/review.md, "Explore"): one decision's options with the review's own values,
// read from the stored review when it is done, else computed by the same judge on the
// request's path, through a bounded number of places: as many computed at once as the
// service has workers, as many waiting as its queue holds, and per asker's key as many as
// Config.PerClient allows.

// Explore answers the options of the decision that event step of match id made. The match
// must be finished and not sealed (as for its review: the seal first); a step outside its log
// is domain.ErrInvalid, an event that no seat chose among moves domain.ErrNotADecision.
// Computed, it is refused with ErrQueueFull or ErrTooManyRunning beyond the bounds.
func (s *Service) Explore(ctx context.Context, id string, step int, who Asker) (analysis.Exploration, error) {
	if err := s.finished(ctx, id); err != nil {
		return analysis.Exploration{}, err
	}
	rec, ok, err := s.store.Review(ctx, id, s.method)
	if err != nil {
		return analysis.Exploration{}, err
	}
	if ok && rec.Status == StatusDone {
		return s.exploreStored(ctx, id, step, rec.Result)
	}
	leave, err := s.enterExplore(ctx, who)
	if err != nil {
		return analysis.Exploration{}, err
	}
	defer leave()
	return s.exploreComputed(ctx, id, step)
}

// exploreStored reads decision step from a done review's JSON; a step the review did not
// judge is told apart (out of the log, or not a decision) by the log itself.
func (s *Service) exploreStored(ctx context.Context, id string, step int, result []byte) (analysis.Exploration, error) {
	var res analysis.Result
	if err := json.Unmarshal(result, &res); err != nil {
		return analysis.Exploration{}, fmt.Errorf("%w: the stored review of %s: %v", storeerr.ErrRecordCorrupt, id, err)
	}
	i, found := slices.BinarySearchFunc(res.Decisions, step, func(d analysis.Decision, seq int) int { return d.Seq - seq })
	if found {
		return analysis.ExplorationOf(res.Decisions[i]), nil
	}
	events, err := s.fullLog(ctx, id)
	if err != nil {
		return analysis.Exploration{}, err
	}
	if _, err := domain.DecisionAt(events, step); err != nil {
		return analysis.Exploration{}, err
	}
	return analysis.Exploration{}, fmt.Errorf("%w: the review judged no decision at event %d", domain.ErrNotADecision, step)
}

// exploreComputed judges decision step from the match's whole log. A log that makes the
// engine panic is a corrupt record, as for a review.
func (s *Service) exploreComputed(ctx context.Context, id string, step int) (x analysis.Exploration, err error) {
	defer func() {
		if p := recover(); p != nil {
			x, err = analysis.Exploration{}, fmt.Errorf("%w: the engine panicked: %v", storeerr.ErrRecordCorrupt, p)
		}
	}()
	events, err := s.fullLog(ctx, id)
	if err != nil {
		return analysis.Exploration{}, err
	}
	return analysis.Explore(ctx, events, step, s.opts)
}

// enterExplore takes a place for one computed exploration asked by who, waiting for one of
// the places being computed at once, and returns the call that gives it back.
func (s *Service) enterExplore(ctx context.Context, who Asker) (leave func(), err error) {
	s.mu.Lock()
	switch {
	case s.exploreWaiting >= s.limit:
		s.mu.Unlock()
		return nil, ErrQueueFull
	case s.perClient > 0 && slices.ContainsFunc(who.Keys, func(k string) bool { return s.exploring[k] >= s.perClient }):
		s.mu.Unlock()
		return nil, ErrTooManyRunning
	}
	s.exploreWaiting++
	keys := slices.Clone(who.Keys)
	for _, k := range keys {
		s.exploring[k]++
	}
	s.mu.Unlock()
	uncount := func(waiting int) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.exploreWaiting -= waiting
		for _, k := range keys {
			if s.exploring[k]--; s.exploring[k] <= 0 {
				delete(s.exploring, k)
			}
		}
	}
	select {
	case s.explorers <- struct{}{}:
	case <-ctx.Done():
		uncount(1)
		return nil, ctx.Err()
	}
	s.mu.Lock()
	s.exploreWaiting--
	s.mu.Unlock()
	return func() {
		<-s.explorers
		uncount(0)
	}, nil
}
