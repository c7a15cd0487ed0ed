package domain

import (
	"slices"
	"time"
)

// Viewer is who is looking: one seat (proved by its token) or a spectator. Every read of a
// match goes through a Viewer, so what a response may show is decided here and nowhere else.
type Viewer struct {
	seat   int
	isSeat bool
	open   bool
	// sealed: the match belongs to a running duplicate round (seal.go).
	sealed bool
	// checked is the version at which the viewer's credential was found to hold its seat,
	// 0 when the viewer is not bound to one (docs/api-matches.md, "When a seat changes hands").
	checked int
}

// Spectator is a viewer with no seat: sees no hand while the match is live.
func Spectator() Viewer { return Viewer{seat: -1} }

// SeatViewer is the viewer holding seat's token.
func SeatViewer(seat int) Viewer { return Viewer{seat: seat, isSeat: true} }

// Opened is the same viewer looking at a finished match's record, where nothing is hidden:
// replaying a finished match shows every hand and the boneyard at every step.
func (v Viewer) Opened() Viewer {
	if v.sealed {
		return v // a sealed record opens when its round ends, not before (seal.go)
	}
	v.open = true
	return v
}

// Seat returns the viewer's seat, or ok=false for a spectator.
func (v Viewer) Seat() (int, bool) { return v.seat, v.isSeat }

// Sees says whether the viewer may see seat's tiles, given whether the match has ended.
func (v Viewer) Sees(seat int, finished bool) bool {
	return finished && !v.sealed || v.open || (v.isSeat && v.seat == seat)
}

// SeatState is a seat as everyone sees it. Kind is open for a seat waiting for a player.
// Autoplay says the seat's bot plays it after its timeouts; Deadline is set only on the seat
// to move, when it is a human on the clock.
type SeatState struct {
	Seat     int
	Name     string
	Kind     PlayerKind
	Bot      string
	Side     int
	Tiles    int
	Autoplay bool
	Deadline *time.Time
	// Player is the lasting player bound to the seat; empty for an anonymous seat.
	Player string
	// ReservedFor is whom an open seat is kept for (zero: anyone with its invite, or the
	// lobby); Resigned says the seat's holder gave the match up.
	ReservedFor Reservation
	Resigned    bool
}

// HandView is the hand in play as everyone sees it.
type HandView struct {
	Number   int
	Line     []Laid
	Left     *OpenEnd // null before the lead: the line has no ends yet
	Right    *OpenEnd
	Total    int
	Boneyard int
	Turn     int
	// Hands and BoneyardTiles are shown only to an opened viewer (a finished match's replay).
	Hands         [][]Tile
	BoneyardTiles []Tile
}

// YouView is the viewer's own seat and tiles.
type YouView struct {
	Seat  int
	Tiles []Tile
}

// MatchView is the match as one viewer may see it (docs/api-matches.md, "Reading a match").
type MatchView struct {
	ID           string
	Status       Status
	Version      int
	Target       int
	Partnerships bool
	Seeded       bool
	Commitment   string
	CreatedAt    time.Time
	Seats        []SeatState
	Scores       []int
	Hand         *HandView
	You          *YouView
	LegalMoves   []LegalMove
	WinnerSide   *int
	// Turn is the seat to act, nil when none is (waiting, finished or expired).
	Turn *int
	// Listed, OpenSeats, TurnSeconds and AutoplayAfter describe the seats and the clock.
	Listed        bool
	OpenSeats     []int
	TurnSeconds   int
	AutoplayAfter int
	// Rated says the match moves its players' ratings (docs/ratings.md).
	Rated bool
	// OfferDeadline is when a waiting offer (a rematch) is cancelled unless its reserved seats
	// are taken; Cancelled is who cancelled a cancelled match, and why.
	OfferDeadline *time.Time
	Cancelled     *MatchCancelled
	// BranchOf names the match and step a branch was played on from; nil on any other match.
	BranchOf *BranchOf
}

// View is the match as v may see it.
func (m *Match) View(v Viewer) MatchView {
	v = m.Holder(v)
	mv := MatchView{
		ID: m.id, Status: m.Status(), Version: m.version, Target: m.info.Target,
		Partnerships: m.info.Partnerships, Seeded: m.info.Seeded, Commitment: m.info.Commitment,
		CreatedAt: m.createdAt, Scores: m.Scores(), Seats: make([]SeatState, len(m.players)),
		LegalMoves: []LegalMove{}, Listed: m.info.Listed, OpenSeats: m.OpenSeats(),
		TurnSeconds: m.info.TurnSeconds, AutoplayAfter: m.info.AutoplayAfter, Rated: m.info.Rated,
		BranchOf: m.info.BranchOf,
	}
	deadline, clocked := m.Deadline()
	for i, p := range m.players {
		mv.Seats[i] = SeatState{Seat: i, Name: p.Name, Kind: p.Kind, Bot: p.Bot, Side: m.table.SideOf(i), Tiles: m.tilesHeld(i), Autoplay: m.autoplay[i], Player: p.Player,
			ReservedFor: p.ReservedFor, Resigned: m.resigned[i]}
		if clocked && i == m.hand.turn {
			d := deadline
			mv.Seats[i].Deadline = &d
		}
	}
	if turn := m.Turn(); turn >= 0 {
		mv.Turn = &turn
	}
	if d, ok := m.OfferDeadline(); ok {
		mv.OfferDeadline = &d
	}
	if c, ok := m.Cancellation(); ok {
		mv.Cancelled = &c
	}
	if seat, ok := v.Seat(); ok && seat < len(m.players) {
		mv.You = &YouView{Seat: seat, Tiles: m.handOf(seat)}
		mv.LegalMoves = m.LegalMoves(seat)
	}
	if m.finished {
		w := m.winnerSide
		mv.WinnerSide = &w
	}
	if m.Revealed() {
		// A finished match keeps its last table, every hand open (docs/design.md, "Who sees
		// what"), unless it is sealed (seal.go); so does one its tournament's cancel closed,
		// whose seed is revealed too.
		v = v.Opened()
	}
	if m.hand.hands != nil && !v.sealedSpectator() {
		mv.Hand = m.handView(v)
	}
	return mv
}

func (m *Match) handView(v Viewer) *HandView {
	h := &m.hand
	hv := &HandView{Number: h.number, Line: h.line.Tiles(), Boneyard: len(h.boneyard), Turn: h.turn}
	if h.line.Len() > 0 {
		left, right := h.line.End(Left), h.line.End(Right)
		hv.Left, hv.Right, hv.Total = &left, &right, h.line.Total()
	}
	if v.open && h.hands != nil {
		hv.Hands = make([][]Tile, len(h.hands))
		for s := range h.hands {
			hv.Hands[s] = m.handOf(s)
		}
		hv.BoneyardTiles = slices.Clone(h.boneyard)
	}
	return hv
}

func (m *Match) tilesHeld(seat int) int {
	if m.hand.hands == nil {
		return 0
	}
	return len(m.hand.hands[seat])
}

func (m *Match) handOf(seat int) []Tile {
	if m.hand.hands == nil {
		return []Tile{}
	}
	return slices.Clone(m.hand.hands[seat])
}

// Redact returns e as v may see it. A live match hides every hand but the viewer's and the
// boneyard order in hand.started, and the tile of another seat's draw; a finished match hides
// nothing. The stored event is never changed.
func (v Viewer) Redact(e Event, finished bool) Event {
	if finished && !v.sealed || v.open {
		return e
	}
	switch d := e.Data.(type) {
	case MatchEnded:
		if v.sealed { // a sealed match's seed is revealed with its round (seal.go)
			d.Seed = ""
			e.Data = d
		}
	case MatchCancelled:
		if v.sealed || !finished { // as match.ended's: revealed with the round, or the record
			d.Seed = ""
			e.Data = d
		}
	case HandStarted:
		hands := make([][]Tile, len(d.Hands))
		for s := range d.Hands {
			if v.Sees(s, false) {
				hands[s] = slices.Clone(d.Hands[s])
			}
		}
		d.Hands, d.Boneyard = hands, nil
		e.Data = d
	case TileDrawn:
		if !v.Sees(d.Seat, false) {
			d.Tile = nil
			e.Data = d
		}
	}
	return e
}

// RedactAll returns events as v may see them. Once an event ends v's hold on its seat (its
// seat joined or left after v's credential was checked), the rest are redacted as for a
// spectator.
func (v Viewer) RedactAll(events []Event, finished bool) []Event {
	out := make([]Event, len(events))
	for i, e := range events {
		if v.LosesSeat(e) {
			v = Spectator()
		}
		out[i] = v.Redact(e, finished)
	}
	return out
}
