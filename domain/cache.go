package domain

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"
)

// entry is one match held in memory. mu serializes commands on the match and guards match:
// a read takes it too, so it never sees a half-applied batch.
type entry struct {
	mu     sync.Mutex
	match  *Match
	record MatchRecord
	elem   *list.Element
	live   atomic.Bool // mirrors !match.Finished() for metrics, readable without mu
}

// set installs the match's new state; the caller holds mu (or owns e exclusively).
func (e *entry) set(m *Match) {
	e.match = m
	e.live.Store(!m.finished)
}

// matchCache keeps the most recently used matches, so a state read does not replay the log.
type matchCache struct {
	mu    sync.Mutex
	max   int
	byID  map[string]*entry
	order *list.List // front: most recently used
}

func newMatchCache(max int) *matchCache {
	return &matchCache{max: max, byID: make(map[string]*entry), order: list.New()}
}

func (c *matchCache) get(id string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byID[id]
	if e != nil {
		c.order.MoveToFront(e.elem)
	}
	return e
}

// put adds e unless the match is already cached, and returns the entry that is cached, so two
// loads racing for one match end up sharing one entry and one lock.
func (c *matchCache) put(e *entry) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := e.match.ID()
	if old := c.byID[id]; old != nil {
		c.order.MoveToFront(old.elem)
		return old
	}
	e.elem = c.order.PushFront(id)
	c.byID[id] = e
	for c.order.Len() > c.max {
		last := c.order.Back()
		delete(c.byID, last.Value.(string))
		c.order.Remove(last)
	}
	return e
}

// drop forgets a match, after the store showed the cached copy is stale.
func (c *matchCache) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.byID[id]; e != nil {
		c.order.Remove(e.elem)
		delete(c.byID, id)
	}
}

// load returns the cached match, or reads and folds it from the store.
func (s *MatchService) load(ctx context.Context, id string) (*entry, error) {
	if e := s.cache.get(id); e != nil {
		return e, nil
	}
	if id == "" || len(id) > 64 {
		return nil, ErrMatchNotFound
	}
	stored, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, err
	}
	events, err := s.store.Events(ctx, id, 0, 0)
	if err != nil {
		return nil, err
	}
	m, err := Rebuild(id, stored.Record.Seed, events)
	if err != nil {
		return nil, err
	}
	fresh := &entry{record: stored.Record}
	fresh.set(m)
	return s.cache.put(fresh), nil
}

// LiveMatches counts the unfinished matches held in memory, for metrics.
func (s *MatchService) LiveMatches() int {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	n := 0
	for _, e := range s.cache.byID {
		if e.live.Load() {
			n++
		}
	}
	return n
}
