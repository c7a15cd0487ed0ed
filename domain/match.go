package domain

import (
	"fmt"
	"slices"
	"time"
)

// Status is where a match stands.
type Status string

// The statuses of a match.
const (
	StatusWaiting    Status = "waiting" // an open seat remains; no hand has been dealt
	StatusInProgress Status = "in_progress"
	StatusFinished   Status = "finished"
	StatusExpired    Status = "expired" // closed while waiting: its open seats stayed empty
	// StatusCancelled: closed while waiting by a decline, a withdrawal or an offer that
	// expired (match.cancelled); never rated.
	StatusCancelled Status = "cancelled"
)

// Match is the event-sourced aggregate: its state changes only by Apply, and Decide turns a
// command into the events that Apply will fold. Hands and the boneyard are unexported and leave
// the package only through views (view.go), which is where hidden information is enforced.
type Match struct {
	id         string
	version    int
	seed       *Seed // nil: rebuilt for reading; the match cannot deal (ErrNoSeed)
	info       MatchCreated
	players    []PlayerInfo // the seats now: open seats filled or emptied by joins and leaves
	autoplay   []bool       // seats handed to their bot after timeouts in a row
	timeouts   []int        // timeouts in a row per seat
	timingOut  int          // the seat whose timed-out turn is being played for it, or -1
	expired    bool
	cancelled  *MatchCancelled // the match.cancelled that closed the match, or nil
	resigned   []bool          // seats whose holder resigned: autoplayed to the end, ranked last
	table      Table
	scores     []int
	finished   bool
	winnerSide int
	hands      int // hands started so far
	createdAt  time.Time
	updatedAt  time.Time
	hand       handState
	// seatChanged is, per seat, the seq of the last seat.joined or seat.left of that seat
	// (0: none), which bounds what a credential checked earlier may see (tenure.go).
	seatChanged [4]int
}

// handState is the hand in play.
type handState struct {
	number   int
	hands    [][]Tile
	boneyard []Tile
	line     Line
	turn     int
	mustLead *Tile // the double the leader must lead, when the highest-double rule applies
	over     bool  // hand.ended applied; the next hand.started or match.ended follows
}

// NewMatch is a match with no events yet that deals from seed: Apply match.created to begin.
// The audit uses it to re-run the rules over a recorded log.
func NewMatch(id string, seed Seed) *Match { return &Match{id: id, seed: &seed, timingOut: -1} }

// Rebuild folds a match's event log for reading. Without its seed the match cannot deal, so a
// command that would start a hand fails with ErrNoSeed: use Resume to play on.
func Rebuild(id string, events []Event) (*Match, error) {
	return fold(&Match{id: id, timingOut: -1}, events)
}

// Resume folds a match's event log so that it can be played on, dealing later hands from seed.
func Resume(id string, seed Seed, events []Event) (*Match, error) {
	return fold(NewMatch(id, seed), events)
}

func fold(m *Match, events []Event) (*Match, error) {
	id := m.id
	if err := m.ApplyAll(events); err != nil {
		return nil, err
	}
	if m.version == 0 {
		return nil, fmt.Errorf("rebuild %s: empty log", id)
	}
	return m, nil
}

// ID is the match's identifier.
func (m *Match) ID() string { return m.id }

// Version is the seq of the last event applied.
func (m *Match) Version() int { return m.version }

// Finished says whether match.ended has been applied.
func (m *Match) Finished() bool { return m.finished }

// Status is waiting (an open seat remains, so no hand is dealt), in_progress, finished,
// expired or cancelled.
func (m *Match) Status() Status {
	switch {
	case m.finished:
		return StatusFinished
	case m.expired:
		return StatusExpired
	case m.cancelled != nil:
		return StatusCancelled
	case m.hasOpenSeat():
		return StatusWaiting
	}
	return StatusInProgress
}

// hasOpenSeat says whether a seat waits for a player (only possible before the first deal).
func (m *Match) hasOpenSeat() bool {
	for _, p := range m.players {
		if p.Kind == Open {
			return true
		}
	}
	return false
}

// Closed says whether the match takes no more events: finished, expired or cancelled.
func (m *Match) Closed() bool { return m.finished || m.expired || m.cancelled != nil }

// Revealed says whether the match's seed is public in its own log: it finished, or its
// tournament's cancel closed it after a deal (MatchCancelled.Seed). Its record then hides no
// tile from anyone, as a finished match's does.
func (m *Match) Revealed() bool {
	return m.finished || (m.cancelled != nil && m.cancelled.Seed != "")
}

// Table is the match's seat arrangement.
func (m *Match) Table() Table { return m.table }

// Players describes the seats as they are now: an open seat has kind open and no name.
func (m *Match) Players() []PlayerInfo { return slices.Clone(m.players) }

// Player describes one seat as it is now, without the copy of every seat that Players makes:
// the referee asks it on every bot turn. A seat outside the table is the zero PlayerInfo.
func (m *Match) Player(seat int) PlayerInfo {
	if !m.validSeat(seat) {
		return PlayerInfo{}
	}
	return m.players[seat]
}

// Scores is each side's score.
func (m *Match) Scores() []int { return slices.Clone(m.scores) }

// Target is the score that ends the match.
func (m *Match) Target() int { return m.info.Target }

// Turn is the seat to act, or -1 when none is: the match is waiting or closed (or,
// in a replay, has not dealt yet).
func (m *Match) Turn() int {
	if m.hand.hands == nil || m.Status() != StatusInProgress {
		return -1
	}
	return m.hand.turn
}

// WinnerSide is the winning side once finished.
func (m *Match) WinnerSide() (int, bool) { return m.winnerSide, m.finished }

// HandsPlayed counts the hands dealt so far.
func (m *Match) HandsPlayed() int { return m.hands }

// CreatedAt is the time of match.created.
func (m *Match) CreatedAt() time.Time { return m.createdAt }

// UpdatedAt is the time of the last event.
func (m *Match) UpdatedAt() time.Time { return m.updatedAt }

// Commitment is hex(sha256(seed)) as published at creation.
func (m *Match) Commitment() string { return m.info.Commitment }

// Seeded says whether the client chose the seed.
func (m *Match) Seeded() bool { return m.info.Seeded }

// Clone copies the state deeply enough that applying events to the copy leaves m untouched.
// info is never changed after match.created, so its slices are shared.
func (m *Match) Clone() *Match {
	c := *m
	c.scores = slices.Clone(m.scores)
	c.players = slices.Clone(m.players)
	c.autoplay = slices.Clone(m.autoplay)
	c.timeouts = slices.Clone(m.timeouts)
	c.resigned = slices.Clone(m.resigned)
	if m.hand.hands != nil { // nil means no hand dealt yet: keep it nil
		c.hand.hands = make([][]Tile, len(m.hand.hands))
		for i, h := range m.hand.hands {
			c.hand.hands[i] = slices.Clone(h)
		}
	}
	c.hand.boneyard = slices.Clone(m.hand.boneyard)
	return &c
}

// canPlay says whether seat holds a tile that fits an open end.
func (h *handState) canPlay(seat int) bool {
	for _, t := range h.hands[seat] {
		if h.line.FitsAny(t) {
			return true
		}
	}
	return false
}

// blocked says whether the hand can go no further: no draws left and nobody can play.
func (h *handState) blocked() bool {
	if len(h.boneyard) > 0 {
		return false
	}
	for s := range h.hands {
		if h.canPlay(s) {
			return false
		}
	}
	return true
}

// pips returns each seat's pips in hand.
func (h *handState) pips() []int {
	p := make([]int, len(h.hands))
	for s, hand := range h.hands {
		p[s] = PipSum(hand)
	}
	return p
}

func removeTile(hand []Tile, t Tile) ([]Tile, bool) {
	i := slices.Index(hand, t)
	if i < 0 {
		return hand, false
	}
	return slices.Delete(hand, i, i+1), true
}
