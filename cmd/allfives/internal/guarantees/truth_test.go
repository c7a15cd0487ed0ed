package guarantees

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// matchTruth is a match as the store holds it, read past the API: the whole log (every hand,
// every draw), its seed, its seats and their credentials' hashes, and whether its duplicate
// round still runs. The assertions judge each answer against it.
type matchTruth struct {
	id      string
	status  domain.Status
	version int
	seed    string // hex, as match.ended reveals it
	events  []domain.Event
	seats   []referee.SeatRecord
	sealed  bool // of a duplicate round whose seed is not yet revealed
}

// live says the match is being played or waits to be: its seed deals hands still to come.
func (m *matchTruth) live() bool {
	return m.status == domain.StatusWaiting || m.status == domain.StatusInProgress
}

// open says everything of the match may be shown to anyone: it is over and not sealed.
func (m *matchTruth) open() bool { return !m.live() && !m.sealed }

// truths reads and keeps the truth of the matches the answers are about. The store changes
// only through the suite's own acts, the clock it moves and the background work it waits
// for: forget drops what was read after each of them.
type truths struct {
	s     *suite
	mu    sync.Mutex
	cache map[string]*matchTruth
	// sealedRounds maps a match to whether its duplicate round's seed is still secret, from
	// the tournaments the suite made.
	sealed map[string]bool
	keys   map[string]string // a key's player, or "" when it holds none now
}

func newTruths(s *suite) *truths { return &truths{s: s} }

// forget drops every truth read: the store may have moved on.
func (tr *truths) forget() {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.cache, tr.sealed, tr.keys = nil, nil, nil
	tr.s.seedBook.markStale()
}

// of is match id's truth, nil when no match has that id.
func (tr *truths) of(id string) *matchTruth {
	tr.s.t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if m, ok := tr.cache[id]; ok {
		return m
	}
	if tr.cache == nil {
		tr.cache = map[string]*matchTruth{}
	}
	ctx := context.Background()
	st, err := tr.s.srv.Store.Match(ctx, id)
	if errors.Is(err, domain.ErrMatchNotFound) {
		tr.cache[id] = nil
		return nil
	}
	if err != nil {
		tr.s.t.Fatalf("truth of match %s: %v", id, err)
	}
	events, err := tr.s.srv.Store.Events(ctx, id, 0, 0)
	if err != nil {
		tr.s.t.Fatalf("truth of match %s: %v", id, err)
	}
	m := &matchTruth{id: id, status: st.Summary.Status, version: len(events), seed: hex.EncodeToString(st.Record.Seed[:]),
		events: events, seats: st.Record.Seats}
	if len(events) > 0 {
		m.status = statusOf(events, st.Summary.Status)
	}
	m.sealed = tr.sealedLocked()[id]
	tr.cache[id] = m
	return m
}

// statusOf is the status the log's last event gives, else the read model's.
func statusOf(events []domain.Event, read domain.Status) domain.Status {
	switch events[len(events)-1].Type {
	case domain.TypeMatchEnded:
		return domain.StatusFinished
	case domain.TypeMatchCancelled:
		return domain.StatusCancelled
	case domain.TypeMatchExpired:
		return domain.StatusExpired
	}
	return read
}

// sealedLocked is, for every match of a duplicate round of the suite's tournaments, whether
// the round's seed is still secret (the round runs).
func (tr *truths) sealedLocked() map[string]bool {
	if tr.sealed != nil {
		return tr.sealed
	}
	tr.sealed = map[string]bool{}
	read := map[string]bool{}
	for _, k := range tr.s.kinds {
		if k.tournament == "" || read[k.tournament] {
			continue
		}
		read[k.tournament] = true
		t, err := tr.s.srv.Tournaments.Get(context.Background(), k.tournament)
		if err != nil {
			tr.s.t.Fatalf("truth of tournament %s: %v", k.tournament, err)
		}
		for _, r := range t.State.Rounds {
			for _, m := range r.Matches {
				if m != "" {
					tr.sealed[m] = tr.sealed[m] || t.State.Spec.Duplicate && !r.Ended && r.Seed == ""
				}
			}
		}
	}
	return tr.sealed
}

// sealedIDs are the matches sealed now.
func (tr *truths) sealedIDs() map[string]bool {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := map[string]bool{}
	for id, sealed := range tr.sealedLocked() {
		if sealed {
			out[id] = true
		}
	}
	return out
}

// player is the player a key stands for now, "" when it stands for none (a rotated key, a
// garbage one).
func (tr *truths) player(key string) string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if p, ok := tr.keys[key]; ok {
		return p
	}
	if tr.keys == nil {
		tr.keys = map[string]string{}
	}
	p, err := tr.s.srv.Players.Authenticate(context.Background(), key)
	if err == nil {
		tr.keys[key] = p.ID
	} else {
		tr.keys[key] = ""
	}
	return tr.keys[key]
}

// holds is the seats of m that c holds now: a seat token's own seat while its hash is the
// seat's, or the human seats bound to a key's player while the key is its player's.
func (tr *truths) holds(m *matchTruth, c cred) []int {
	if m == nil || c.secret == "" {
		return nil
	}
	sum := sha256.Sum256([]byte(c.secret))
	player := ""
	if c.isKey {
		player = tr.player(c.secret)
	}
	var seats []int
	for _, s := range m.seats {
		if s.Kind != domain.Human {
			continue
		}
		if len(s.TokenHash) > 0 && bytes.Equal(s.TokenHash, sum[:]) || player != "" && s.Player == player {
			seats = append(seats, s.Seat)
		}
	}
	return seats
}
