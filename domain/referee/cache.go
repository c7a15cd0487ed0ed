package referee

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"

	"github.com/allfives/allfives/domain"
)

// entry is one match held in memory. mu serializes commands on the match and guards match:
// a read takes it too, so it never sees a half-applied batch.
type entry struct {
	mu     sync.Mutex
	match  *domain.Match
	hands  domain.HandLog // this hand's events, for bots' seat views
	record MatchRecord
	elem   *list.Element
	pins   int          // requests using the entry, guarded by matchCache.mu
	live   atomic.Bool  // mirrors !match.Finished() for metrics, readable without mu
	ver    atomic.Int64 // mirrors match.Version(), readable without mu
}

// set installs the match's new state; the caller holds mu (or owns e exclusively).
func (e *entry) set(t *table) {
	e.match, e.hands = t.match, t.hands
	e.live.Store(!t.match.Closed())
	e.ver.Store(int64(t.match.Version()))
}

// working is a copy of the entry's state for a command to play on; the caller holds mu.
func (e *entry) working() *table {
	return (&table{match: e.match, hands: e.hands}).clone()
}

// matchCache keeps the most recently used matches, so a state read does not replay the log.
// An entry in use is pinned and never evicted: were it evicted mid-move, the next request
// would load a second copy, and whichever copy moved last would leave the other stale.
type matchCache struct {
	mu    sync.Mutex
	max   int
	byID  map[string]*entry
	order *list.List // front: most recently used
}

func newMatchCache(max int) *matchCache {
	return &matchCache{max: max, byID: make(map[string]*entry), order: list.New()}
}

// get returns the cached entry for id, pinned, or nil.
func (c *matchCache) get(id string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byID[id]
	if e != nil {
		c.order.MoveToFront(e.elem)
		e.pins++
	}
	return e
}

// put adds e unless the match is already cached, and returns the entry that is cached, pinned,
// so two loads racing for one match end up sharing one entry and one lock.
func (c *matchCache) put(e *entry) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := e.match.ID()
	if old := c.byID[id]; old != nil {
		c.order.MoveToFront(old.elem)
		old.pins++
		return old
	}
	e.elem = c.order.PushFront(id)
	e.pins++
	c.byID[id] = e
	c.evict()
	return e
}

// evict drops the least recently used unpinned entries while the cache is over its size; with
// every entry pinned it may stay over until they are released.
func (c *matchCache) evict() {
	for el := c.order.Back(); el != nil && c.order.Len() > c.max; {
		prev := el.Prev()
		if id := el.Value.(string); c.byID[id].pins == 0 {
			delete(c.byID, id)
			c.order.Remove(el)
		}
		el = prev
	}
}

// unpin releases an entry got from get or put.
func (c *matchCache) unpin(e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.pins--
	if e.pins == 0 {
		c.evict()
	}
}

// drop forgets a cached entry shown to be stale; a newer entry for the same match stays.
func (c *matchCache) drop(e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := e.match.ID()
	if c.byID[id] == e {
		c.order.Remove(e.elem)
		delete(c.byID, id)
	}
}

// acquire returns the match's entry pinned and locked; release it when done.
func (s *MatchService) acquire(ctx context.Context, id string) (*entry, error) {
	e, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	return e, nil
}

// release unlocks and unpins an entry from acquire.
func (s *MatchService) release(e *entry) {
	e.mu.Unlock()
	s.cache.unpin(e)
}

// load returns the match's entry, pinned, from the cache or read and folded from the store.
func (s *MatchService) load(ctx context.Context, id string) (*entry, error) {
	if e := s.cache.get(id); e != nil {
		return e, nil
	}
	if id == "" || len(id) > 64 {
		return nil, domain.ErrMatchNotFound
	}
	stored, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, corrupt(id, err)
	}
	events, err := s.store.Events(ctx, id, 0, 0)
	if err != nil {
		return nil, corrupt(id, err)
	}
	t, err := foldStored(id, stored.Record.Seed, events)
	if err != nil {
		return nil, err
	}
	fresh := &entry{record: stored.Record}
	fresh.set(t)
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
