package referee

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"

	"github.com/allfives/allfives/domain"
)

// entry is one match held in memory. mu serializes commands on the match and guards match,
// hands and keys. Reads do not take mu: every state a command installs is also published as
// an immutable snapshot (snap), which a read loads with one atomic operation, so a read never
// waits for a move in flight (docs/design.md, "Group commit and reads that never wait").
type entry struct {
	mu     sync.Mutex
	match  *domain.Match
	hands  domain.HandLog // this hand's events, for bots' seat views
	record MatchRecord
	// seats is record.Seats, published whole whenever a join or leave replaces it, so that
	// Authenticate reads the token hashes without waiting for a move that holds mu.
	seats atomic.Pointer[[]SeatRecord]
	// next is record.NextMatchID, published with it: a finished match's rematch, read without mu.
	next atomic.Pointer[string]
	// keys are the idempotency records committed through this entry, by seat and key (each
	// seat has keys of its own, docs/api-matches.md "Idempotency"); keysAll says they are every record
	// the match has (the entry was created here, not loaded), so a key not among them needs
	// no read of the store.
	keys     map[seatKey]IdempotencyRecord
	keysAll  bool
	keyBytes int // estimated bytes of keys
	snap     atomic.Pointer[snapshot]
	elem     *list.Element
	pins     int          // requests using the entry, guarded by matchCache.mu
	size     atomic.Int64 // estimated bytes, counted in cache.bytes while listed
	cache    *matchCache  // set when listed
	live     atomic.Bool  // mirrors !match.Closed() for metrics, readable without mu
	ver      atomic.Int64 // mirrors match.Version(), readable without mu
}

// seatKey names an idempotency record of a match: the seat that sent the key, and the key.
type seatKey struct {
	seat int
	key  string
}

// maxSeats is the most seats a match has (docs/rules.md).
const maxSeats = 4

// snapshot is one published state of a match. Nothing in it is ever modified: a command
// plays on a clone (entry.working) and publishes the clone once the store holds its events.
type snapshot struct {
	match *domain.Match
	hands domain.HandLog
	// views are the encoded views of this version (encodedView), one slot per viewer:
	// the spectator, then seats 0 to 3. viewBytes is their size counted in the cache's total,
	// guarded by matchCache.mu.
	views     [1 + maxSeats]atomic.Pointer[[]byte]
	viewBytes int64
}

// set installs the match's new state and publishes it; the caller holds mu (or owns e
// exclusively).
func (e *entry) set(g *game) {
	e.match, e.hands = g.match, g.hands
	next := &snapshot{match: g.match, hands: g.hands}
	if c := e.cache; c != nil {
		// The old version's encoded views go with it: their bytes leave the total under the
		// cache's lock, as they entered it (keepView).
		c.mu.Lock()
		if old := e.snap.Swap(next); old != nil {
			c.bytes.Add(-old.viewBytes)
		}
		c.mu.Unlock()
	} else {
		e.snap.Store(next)
	}
	e.live.Store(!g.match.Closed())
	e.ver.Store(int64(g.match.Version()))
	e.resize()
}

// Estimated memory of an entry, measured with runtime.MemStats over many loaded matches
// (TestEntrySizeEstimate): a match's state and record, plus this hand's events, plus its
// remembered idempotency keys. The cache is bounded by the sum of these estimates.
const (
	entryBytes = 2 << 10
	eventBytes = 192
	keyBytes   = 192
	// viewOverhead is what an encoded view costs beyond its bytes.
	viewOverhead = 64
)

// resize re-estimates e's memory and updates its cache's total; the caller holds mu.
func (e *entry) resize() {
	n := int64(entryBytes + eventBytes*e.hands.Len() + e.keyBytes)
	if old := e.size.Swap(n); e.cache != nil {
		e.cache.bytes.Add(n - old)
	}
}

// setRecord installs the match's record and publishes its seats; the caller holds mu (or owns
// e exclusively). rec.Seats is never changed in place afterwards: withSeats makes a new slice.
func (e *entry) setRecord(rec MatchRecord) {
	e.record = rec
	e.seats.Store(&rec.Seats)
	e.next.Store(&rec.NextMatchID)
}

// working is a copy of the entry's state for a command to play on; the caller holds mu.
func (e *entry) working() *game {
	return (&game{match: e.match, hands: e.hands}).clone()
}

// remember keeps a committed idempotency record in memory; the caller holds mu.
func (e *entry) remember(rec *IdempotencyRecord) {
	if rec == nil {
		return
	}
	if e.keys == nil {
		e.keys = make(map[seatKey]IdempotencyRecord)
	}
	k := seatKey{rec.Seat, rec.Key}
	if _, ok := e.keys[k]; !ok {
		e.keyBytes += keyBytes + len(rec.Key)
	}
	e.keys[k] = *rec
	e.resize()
}

// idempotency finds the record seat stored under key for the match in e: in memory when the
// entry knows it, else in the store. Another seat's record of the same key is never found.
// The caller holds e.mu.
func (s *MatchService) idempotency(ctx context.Context, e *entry, seat int, key string) (IdempotencyRecord, bool, error) {
	if rec, ok := e.keys[seatKey{seat, key}]; ok {
		return rec, true, nil
	}
	if e.keysAll {
		return IdempotencyRecord{}, false, nil
	}
	return s.store.Idempotency(ctx, e.match.ID(), seat, key)
}

// matchCache keeps the most recently used matches, so a state read does not replay the log.
// An entry in use is pinned and never evicted: were it evicted mid-move, the next request
// would load a second copy, and whichever copy moved last would leave the other stale.
type matchCache struct {
	mu       sync.Mutex
	max      int   // most entries; 0: no bound by count
	maxBytes int64 // most estimated bytes (entry.size)
	bytes    atomic.Int64
	byID     map[string]*entry
	order    *list.List // front: most recently used
}

func newMatchCache(max int, maxBytes int64) *matchCache {
	return &matchCache{max: max, maxBytes: maxBytes, byID: make(map[string]*entry), order: list.New()}
}

// peek returns the cached entry for id without pinning it, or nil: for reads, which only load
// its snapshot.
func (c *matchCache) peek(id string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byID[id]
	if e != nil {
		c.order.MoveToFront(e.elem)
	}
	return e
}

// over says whether the cache holds more than it should.
func (c *matchCache) over() bool {
	return c.max > 0 && c.order.Len() > c.max || c.bytes.Load() > c.maxBytes
}

// unlist removes e from the cache; the caller holds mu.
func (c *matchCache) unlist(e *entry) {
	c.order.Remove(e.elem)
	delete(c.byID, e.snap.Load().match.ID())
	c.bytes.Add(-e.size.Load() - e.snap.Load().viewBytes)
}

// keepView stores b as snap's encoded view in slot, counted in the cache's total, unless the
// entry has left the cache or moved on to another version meanwhile, or another read stored
// the slot first.
func (c *matchCache) keepView(e *entry, snap *snapshot, slot int, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID[snap.match.ID()] != e || e.snap.Load() != snap || !snap.views[slot].CompareAndSwap(nil, &b) {
		return
	}
	n := int64(len(b)) + viewOverhead
	snap.viewBytes += n
	c.bytes.Add(n)
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
	e.cache = c
	c.bytes.Add(e.size.Load())
	c.evict()
	return e
}

// evict drops the least recently used unpinned entries while the cache is over its size; with
// every entry pinned it may stay over until they are released.
func (c *matchCache) evict() {
	for el := c.order.Back(); el != nil && c.over(); {
		prev := el.Prev()
		if e := c.byID[el.Value.(string)]; e.pins == 0 {
			c.unlist(e)
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
	if c.byID[e.match.ID()] == e {
		c.unlist(e)
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

// snapshot returns the match's current published state without taking its lock, from the
// cache or, on a miss, loaded from the store.
func (s *MatchService) snapshot(ctx context.Context, id string) (*snapshot, error) {
	_, snap, err := s.current(ctx, id)
	return snap, err
}

// current is snapshot with the entry it was published by.
func (s *MatchService) current(ctx context.Context, id string) (*entry, *snapshot, error) {
	if _, shared := s.store.(HeadReader); shared {
		return s.confirmed(ctx, id) // head.go
	}
	if e := s.cache.peek(id); e != nil {
		return e, e.snap.Load(), nil
	}
	e, err := s.load(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	defer s.cache.unpin(e)
	return e, e.snap.Load(), nil
}

// load returns the match's entry, pinned, from the cache or read and folded from the store.
func (s *MatchService) load(ctx context.Context, id string) (*entry, error) {
	if e := s.cache.get(id); e != nil {
		if _, err := s.fresh(ctx, e); err != nil {
			s.cache.unpin(e)
			return nil, err
		}
		return e, nil
	}
	if id == "" || len(id) > 64 {
		return nil, domain.ErrMatchNotFound
	}
	// The log before the record: the seats read then are no older than the match folded
	// from the log, as commit publishes them (Authenticate relies on it).
	events, err := s.store.Events(ctx, id, 0, 0)
	if err != nil {
		return nil, corrupt(id, err)
	}
	stored, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, corrupt(id, err)
	}
	g, err := foldStored(id, stored.Record.Seed, events)
	if err != nil {
		return nil, err
	}
	fresh := &entry{}
	fresh.setRecord(stored.Record)
	fresh.set(g)
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
