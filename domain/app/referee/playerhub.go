package referee

import (
	"context"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
)

// hubLookupTimeout bounds the hub's read of one announced match's players.
const hubLookupTimeout = 5 * time.Second

// hubCacheSize bounds the players the hub remembers of matches that have started, whose seats
// no longer change hands (a seat is joined or left only while its match waits).
const hubCacheSize = 4096

// hubQueueSize bounds the announcements waiting to be routed. Past it (a store too slow for the
// rate of appends) they are dropped for one "" (any match may have moved), so that the hub's
// memory stays bounded and every stream still reads again what it follows.
const hubQueueSize = 8192

// PlayerHub carries the announcement of every match created or appended to, on this instance
// or another (MatchService.WatchAll), to the streams of the players seated in it
// (GET /api/v1/players/me/stream). An announcement carries only the match id: each stream
// reads the match itself. The hub listens only while a player's stream is open.
type PlayerHub struct {
	svc *MatchService

	mu     sync.Mutex
	subs   map[string]map[*PlayerSubscription]struct{} // by player id
	open   int
	cancel func()        // WatchAll's, while a stream is open
	stop   chan struct{} // closed when the last stream leaves
	// known are the players of matches that have started, which no longer change.
	known map[string]MatchPlayers

	// The announcements not yet routed, under qmu alone: WatchAll calls announce with the
	// referee's watchers' lock held, so it must never wait for mu.
	qmu    sync.Mutex
	queue  []string
	signal chan struct{}
}

// PlayerSubscription is one player's stream as the hub knows it: the matches announced for it
// since it last looked.
type PlayerSubscription struct {
	mu      sync.Mutex
	pending map[string]MatchPlayers
	resync  bool // any match may have moved: announcements were lost
	wake    chan struct{}
}

// NewPlayerHub returns a hub over svc; it listens to svc only while a subscription is open.
func NewPlayerHub(svc *MatchService) *PlayerHub {
	return &PlayerHub{svc: svc, subs: map[string]map[*PlayerSubscription]struct{}{}, known: map[string]MatchPlayers{}}
}

// Subscribe follows the matches of player; the func it returns leaves.
func (h *PlayerHub) Subscribe(player string) (*PlayerSubscription, func()) {
	sub := &PlayerSubscription{pending: map[string]MatchPlayers{}, wake: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open == 0 {
		h.stop = make(chan struct{})
		signal := make(chan struct{}, 1)
		h.qmu.Lock()
		h.signal, h.queue = signal, nil
		h.qmu.Unlock()
		go h.run(h.stop, signal)
		h.cancel = h.svc.WatchAll(h.announce)
	}
	h.open++
	if h.subs[player] == nil {
		h.subs[player] = map[*PlayerSubscription]struct{}{}
	}
	h.subs[player][sub] = struct{}{}
	var once sync.Once
	return sub, func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			delete(h.subs[player], sub)
			if len(h.subs[player]) == 0 {
				delete(h.subs, player)
			}
			if h.open--; h.open == 0 {
				h.cancel()
				close(h.stop)
				h.known = map[string]MatchPlayers{}
			}
		})
	}
}

// announce queues match id ("" for any match) for run; it never blocks.
func (h *PlayerHub) announce(id string) {
	h.qmu.Lock()
	if len(h.queue) >= hubQueueSize {
		h.queue = append(h.queue[:0], "")
	}
	h.queue = append(h.queue, id)
	signal := h.signal
	h.qmu.Unlock()
	select {
	case signal <- struct{}{}:
	default:
	}
}

// run routes the announcements until stop closes.
func (h *PlayerHub) run(stop <-chan struct{}, signal <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-signal:
		}
		h.qmu.Lock()
		ids := h.queue
		h.queue = nil
		h.qmu.Unlock()
		seen := map[string]bool{}
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			if id == "" {
				h.resyncAll()
				continue
			}
			h.route(id)
		}
	}
}

// route hands match id to the streams of the players seated in it.
func (h *PlayerHub) route(id string) {
	h.mu.Lock()
	mp, ok := h.known[id]
	h.mu.Unlock()
	if !ok {
		ctx, cancel := context.WithTimeout(context.Background(), hubLookupTimeout)
		defer cancel()
		// The status first: seen started, the match's seats are settled before its players
		// are read, so what is remembered cannot miss a join.
		// Read by id, not as a spectator, whom a sealed match refuses.
		status, statusErr := h.svc.StatusOf(ctx, id)
		var err error
		if mp, err = h.svc.Players(ctx, id); err != nil {
			return // a match that cannot be read now is read again at its next announcement
		}
		if statusErr == nil && status != domain.StatusWaiting {
			h.mu.Lock()
			if len(h.known) >= hubCacheSize {
				clear(h.known)
			}
			h.known[id] = mp
			h.mu.Unlock()
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, sp := range mp.Seats {
		for sub := range h.subs[sp.Player] {
			sub.add(id, mp)
		}
	}
}

// resyncAll tells every stream that any match may have moved.
func (h *PlayerHub) resyncAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for sub := range subs {
			sub.mu.Lock()
			sub.resync = true
			sub.mu.Unlock()
			sub.signal()
		}
	}
}

func (s *PlayerSubscription) add(id string, mp MatchPlayers) {
	s.mu.Lock()
	s.pending[id] = mp
	s.mu.Unlock()
	s.signal()
}

func (s *PlayerSubscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Wake receives when an announcement or a resync waits for Take.
func (s *PlayerSubscription) Wake() <-chan struct{} { return s.wake }

// Take returns the matches announced since the last Take, and whether to resync.
func (s *PlayerSubscription) Take() (map[string]MatchPlayers, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out, resync := s.pending, s.resync
	s.pending, s.resync = map[string]MatchPlayers{}, false
	return out, resync
}
