package referee

import (
	"context"
	"sync"
)

// HeadReader is what a store shared by several processes also implements, so that a copy of a
// match cached by one process serves a read only once the store confirms that it is the head
// (docs/design.md, "Several instances"): a read that begins after a move was acknowledged, by
// any process, shows that move or a later state. A store that one process owns alone (SQLite)
// does not implement it, and its reads pay nothing.
type HeadReader interface {
	// Head returns match id's stored version, the last seq of its log, or ErrMatchNotFound:
	// one read of the match's row by its primary key.
	Head(ctx context.Context, id string) (int, error)
}

// headMemo remembers, for one request, the versions the store confirmed as heads: a read that
// began before a check may trust what the check found, so the reads one request makes of one
// match (its seat's authentication, then its state) cost one check, not one each.
type headMemo struct {
	mu    sync.Mutex
	heads map[string]int
}

type headMemoKey struct{}

// ChecksHeads says whether the service's store is shared with other processes (a HeadReader),
// so that its reads check their cached copies against the store.
func (s *MatchService) ChecksHeads() bool {
	_, ok := s.store.(HeadReader)
	return ok
}

// OneHeadCheck returns ctx carrying a memo of head checks for one request: every read through
// it of a match already confirmed at a version serves a copy at that version or later without
// asking the store again. Only a request's own context should carry one: a memo outliving the
// request would let a later read trust an old check. A live stream's later reads read the log
// from the store itself, so its memo does no harm.
func OneHeadCheck(ctx context.Context) context.Context {
	return context.WithValue(ctx, headMemoKey{}, &headMemo{})
}

func memoOf(ctx context.Context) *headMemo {
	m, _ := ctx.Value(headMemoKey{}).(*headMemo)
	return m
}

// head is the version the memo confirmed match id at, if it did.
func (m *headMemo) head(id string) (int, bool) {
	if m == nil {
		return 0, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.heads[id]
	return h, ok
}

// note remembers that the store confirmed match id at version head.
func (m *headMemo) note(id string, head int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.heads == nil {
		m.heads = make(map[string]int, 1)
	}
	m.heads[id] = max(m.heads[id], head)
}

// confirmed is current for a store shared with other processes: the cached copy, pinned
// while the store confirms it or it catches up, or the match loaded afresh.
func (s *MatchService) confirmed(ctx context.Context, id string) (*entry, *snapshot, error) {
	e, err := s.load(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	defer s.cache.unpin(e)
	return e, e.snap.Load(), nil
}

// fresh returns e's published state once the store confirms it is the head, after catching the
// copy up when the store is ahead. The caller holds a pin on e, so that e leaves the cache
// only by a drop, which takes e.mu; it must not hold e.mu itself.
func (s *MatchService) fresh(ctx context.Context, e *entry) (*snapshot, error) {
	snap := e.snap.Load()
	hr, ok := s.store.(HeadReader)
	if !ok {
		return snap, nil
	}
	id, have := snap.match.ID(), snap.match.Version()
	memo := memoOf(ctx)
	head, ok := memo.head(id)
	if ok && have >= head {
		return snap, nil
	}
	var err error
	if !ok {
		// A head the memo has is as good as a new one: the read that found it started after
		// this request began (a key's lookup folded into it, or an earlier check).
		if head, err = hr.Head(ctx, id); err != nil {
			return nil, corrupt(id, err)
		}
	}
	if head > have {
		if snap, err = s.catchUp(ctx, e, head); err != nil {
			return nil, err
		}
	}
	memo.note(id, head)
	return snap, nil
}

// catchUp brings e's copy to at least version head with the events after it, rather than a
// reload of the whole log, and returns the state published. The seat records are read after
// the log, as load reads them, so they are no older than the match they are published with.
// A copy whose new events do not fold is dropped and the match loaded afresh, which reports a
// corrupt record as load does.
func (s *MatchService) catchUp(ctx context.Context, e *entry, head int) (*snapshot, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.match.Version() >= head {
		return e.snap.Load(), nil // a move of this process or another read got there first
	}
	id := e.match.ID()
	events, err := s.store.Events(ctx, id, e.match.Version(), 0)
	if err != nil {
		return nil, corrupt(id, err)
	}
	stored, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, corrupt(id, err)
	}
	work := e.working()
	if err := work.apply(events); err != nil || work.match.Version() < head {
		s.cache.drop(e)
		return s.reloaded(ctx, id)
	}
	if !s.cache.holds(e) {
		// Dropped meanwhile (an announcement, a lost race): this read gets the caught-up state,
		// and the entry, which no one will find again, is left as it was.
		return &snapshot{match: work.match, hands: work.hands}, nil
	}
	// Another process may have recorded idempotency keys among these events: from now on a key
	// not held in memory is looked up in the store.
	e.keysAll = false
	e.setRecord(stored.Record)
	e.set(work)
	return e.snap.Load(), nil
}

// holds says whether e is the match's entry in the cache.
func (c *matchCache) holds(e *entry) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byID[e.match.ID()] == e
}

// reloaded is the match's state loaded from the store, for a copy that could not catch up.
// The caller holds the old copy's lock, which the new copy does not share.
func (s *MatchService) reloaded(ctx context.Context, id string) (*snapshot, error) {
	fresh, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	defer s.cache.unpin(fresh)
	return fresh.snap.Load(), nil
}
