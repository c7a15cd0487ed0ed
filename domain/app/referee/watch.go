package referee

import (
	"context"
	"sync"

	"github.com/allfives/allfives/domain"
)

// watchers wakes those following a match whenever its log grows. A wake-up carries no data:
// the follower reads the new events through Events, so what it sees is always redacted there.
type watchers struct {
	mu   sync.Mutex
	byID map[string]map[chan struct{}]struct{}
	// every are the WatchAll followers (announce.go), told of every match.
	every    map[int]func(string)
	everySeq int
}

// Watch returns a channel that receives a signal after each append to match id (signals
// coalesce: one pending signal stands for any number of appends), and a cancel func that must
// be called when the follower leaves.
func (s *MatchService) Watch(id string) (<-chan struct{}, func()) {
	w := &s.watch
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	if w.byID == nil {
		w.byID = make(map[string]map[chan struct{}]struct{})
	}
	if w.byID[id] == nil {
		w.byID[id] = make(map[chan struct{}]struct{})
	}
	w.byID[id][ch] = struct{}{}
	w.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			w.mu.Lock()
			delete(w.byID[id], ch)
			if len(w.byID[id]) == 0 {
				delete(w.byID, id)
			}
			w.mu.Unlock()
		})
	}
}

// wake signals every follower of match id without blocking.
func (w *watchers) wake(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.byID[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	w.announce(id)
}

// Tracker is a stream's server-side fold of a match's full log, from which the view after each
// event is read for one viewer. The fold never leaves the server: a client sees only views
// redacted for its viewer, as View gives them.
type Tracker struct {
	m *domain.Match
}

// EventViews is Events with, for each event, the match as v may see it right after that event
// (docs/api-matches.md, "Playing with others": the stream's ?view=1). tr carries the fold from one call
// to the next; pass the zero Tracker first. Once the match has finished every view is open,
// as a replay of a finished match is.
func (s *MatchService) EventViews(ctx context.Context, id string, v domain.Viewer, tr *Tracker, after, limit int) ([]domain.Event, []domain.MatchView, error) {
	events, _, err := s.Events(ctx, id, v, after, limit)
	if err != nil || len(events) == 0 {
		return events, nil, err
	}
	finished, err := s.finished(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if tr.m == nil || tr.m.Version() != after {
		prior, err := s.store.Events(ctx, id, 0, after)
		if err != nil {
			return nil, nil, err
		}
		if tr.m, err = domain.Rebuild(id, prior); err != nil && after > 0 {
			return nil, nil, err
		}
		if after == 0 {
			tr.m = nil
		}
	}
	raw, err := s.store.Events(ctx, id, after, len(events))
	if err != nil {
		return nil, nil, err
	}
	if v, err = s.sealForID(ctx, id, v, true); err != nil {
		return nil, nil, err
	}
	if finished {
		v = v.Opened() // no-op for a sealed viewer
	}
	views := make([]domain.MatchView, 0, len(raw))
	for _, e := range raw {
		if tr.m == nil {
			if tr.m, err = domain.Rebuild(id, []domain.Event{e}); err != nil {
				return nil, nil, err
			}
		} else if err := tr.m.Apply(e); err != nil {
			return nil, nil, err
		}
		views = append(views, tr.m.View(v))
	}
	return events[:len(views)], views, nil
}

// finished says whether the match's record is open (finished, or cancelled with its seed
// revealed), from the cache or the store.
func (s *MatchService) finished(ctx context.Context, id string) (bool, error) {
	_, open, err := s.status(ctx, id)
	return open, err
}

// Follow runs n until ctx ends, handing each append it announces to Appended: how an instance
// hears of moves made by the others sharing its store (docs/design.md, "Several instances").
func (s *MatchService) Follow(ctx context.Context, n Notifier) error {
	return n.Listen(ctx, s.Appended)
}

// Appended is told that match id's log has reached version, possibly by another instance. A
// cached copy older than that is dropped, so the next request reads the match afresh, and the
// match's followers are woken, so streams send the new events. id "" means any match may have
// moved: every cached copy no request is using is dropped and every follower woken. Version 0
// says its seats changed without an append (ForgetSeatsOf): its copy is dropped whatever its
// version.
func (s *MatchService) Appended(id string, version int) {
	if id == "" {
		s.forgetAll()
		return
	}
	// Pinned, but not moved up the LRU order: an announcement is not a use.
	s.cache.mu.Lock()
	e := s.cache.byID[id]
	if e != nil {
		e.pins++
	}
	s.cache.mu.Unlock()
	if e == nil {
		s.watch.wake(id)
		return
	}
	// A command holding the entry may be mid-append; wait for it elsewhere, so that a slow move
	// never holds up the announcements of other matches.
	if !e.mu.TryLock() {
		go func() {
			e.mu.Lock()
			s.dropIfOlder(e, version)
			s.watch.wake(id)
		}()
		return
	}
	s.dropIfOlder(e, version)
	s.watch.wake(id)
}

// dropIfOlder drops e from the cache when its copy is older than version, then unlocks and
// unpins it; the caller holds e.mu and a pin.
func (s *MatchService) dropIfOlder(e *entry, version int) {
	if e.match.Version() < version || version == 0 {
		s.cache.drop(e)
	}
	s.release(e)
}

// forgetAll drops every cached copy that no request is using and wakes every follower. Copies
// in use are left: a command's append still meets the stored version.
func (s *MatchService) forgetAll() {
	s.cache.mu.Lock()
	for _, e := range s.cache.byID {
		if e.pins == 0 {
			s.cache.unlist(e) // its memory and its encoded views leave the total with it
		}
	}
	s.cache.mu.Unlock()
	s.watch.mu.Lock()
	ids := make([]string, 0, len(s.watch.byID))
	for id := range s.watch.byID {
		ids = append(ids, id)
	}
	s.watch.mu.Unlock()
	for _, id := range ids {
		s.watch.wake(id)
	}
	s.watch.mu.Lock()
	s.watch.announce("")
	s.watch.mu.Unlock()
}
