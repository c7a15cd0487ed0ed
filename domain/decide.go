package domain

import (
	"fmt"
	"time"
)

// Move is what a seat asks to do. For a play, EndGiven says whether the client named the end;
// when it did not, the referee picks the only end the tile fits, or asks for one.
type Move struct {
	Action   Action
	Tile     Tile
	End      End
	EndGiven bool
}

// Play is the move laying t on end e.
func Play(t Tile, e End) Move { return Move{Action: ActionPlay, Tile: t, End: e, EndGiven: true} }

// Draw is the move drawing from the boneyard.
func Draw() Move { return Move{Action: ActionDraw} }

// Pass is the move passing the turn.
func Pass() Move { return Move{Action: ActionPass} }

// Decide checks seat's move against the rules and returns the events it causes, in order: the
// move's own event, then whatever follows from it (hand end, next deal, match end). The match is
// not changed; Apply the events to move it on.
func (m *Match) Decide(seat int, mv Move, at time.Time) ([]Event, error) {
	if err := m.checkTurn(seat); err != nil {
		return nil, err
	}
	return m.Clone().execute(seat, mv, at)
}

func (m *Match) checkTurn(seat int) error {
	if err := m.closedErr(); err != nil {
		return err
	}
	switch {
	case m.hands == 0:
		return ErrMatchNotStarted
	case seat < 0 || seat >= m.table.players:
		return Invalidf("there is no seat %d", seat)
	case m.hand.hands == nil || m.hand.over:
		return Invalidf("no hand is in play")
	case seat != m.hand.turn:
		return fmt.Errorf("%w: seat %d is to move", ErrNotYourTurn, m.hand.turn)
	}
	return nil
}

func (m *Match) execute(seat int, mv Move, at time.Time) ([]Event, error) {
	r := &recorder{m: m, at: at}
	if err := r.act(seat, mv); err != nil {
		return nil, err
	}
	return r.events, nil
}

// act raises the events of seat's move on the recorder's match.
func (r *recorder) act(seat int, mv Move) error {
	switch mv.Action {
	case ActionPlay:
		return r.play(seat, mv)
	case ActionDraw:
		return r.draw(seat)
	case ActionPass:
		return r.pass(seat)
	}
	return Invalidf("unknown action")
}

// recorder raises events onto the match it decides for (a scratch copy in Decide), so that each
// rule after the first event sees the state that event made.
type recorder struct {
	m      *Match
	at     time.Time
	events []Event
}

func (r *recorder) raise(d EventData) error {
	e := Event{Seq: r.m.version + 1, Type: d.EventType(), At: r.at, Data: d}
	if err := r.m.Apply(e); err != nil {
		return fmt.Errorf("internal: %w", err)
	}
	r.events = append(r.events, e)
	return nil
}

func (r *recorder) play(seat int, mv Move) error {
	h := &r.m.hand
	if !contains(h.hands[seat], mv.Tile) {
		return fmt.Errorf("%w: %s", ErrTileNotInHand, mv.Tile)
	}
	end, err := chooseEnd(h, mv)
	if err != nil {
		return err
	}
	total := h.line.TotalAfter(mv.Tile, end)
	points := scoreOf(total)
	if err := r.raise(TilePlayed{Seat: seat, Tile: mv.Tile, End: end, Total: total, Points: points}); err != nil {
		return err
	}
	if r.reachedTarget() {
		return r.endMatch()
	}
	if len(h.hands[seat]) == 0 {
		return r.wentOut(seat)
	}
	if h.blocked() {
		return r.endBlocked()
	}
	return nil
}

// chooseEnd applies the lead and end rules of docs/rules.md (rules 5 and 7) to a play.
func chooseEnd(h *handState, mv Move) (End, error) {
	if h.line.Len() == 0 {
		if h.mustLead != nil && mv.Tile != *h.mustLead {
			return Left, fmt.Errorf("%w: lead %s", ErrMustLeadDouble, *h.mustLead)
		}
		return Left, nil
	}
	left, right := h.line.Fits(mv.Tile, Left), h.line.Fits(mv.Tile, Right)
	switch {
	case mv.EndGiven && !h.line.Fits(mv.Tile, mv.End):
		return Left, fmt.Errorf("%w: %s does not match the %s end (%d)", ErrTileDoesNotFit, mv.Tile, mv.End, h.line.End(mv.End).Pip)
	case mv.EndGiven:
		return mv.End, nil
	case left && right:
		return Left, fmt.Errorf("%w: %s fits left and right", ErrEndRequired, mv.Tile)
	case left:
		return Left, nil
	case right:
		return Right, nil
	}
	return Left, fmt.Errorf("%w: %s matches neither end", ErrTileDoesNotFit, mv.Tile)
}

func (r *recorder) draw(seat int) error {
	h := &r.m.hand
	if h.canPlay(seat) {
		return ErrMustPlay
	}
	if len(h.boneyard) == 0 {
		return ErrMustPass
	}
	t := h.boneyard[0]
	if err := r.raise(TileDrawn{Seat: seat, Tile: &t}); err != nil {
		return err
	}
	if h.blocked() {
		return r.endBlocked()
	}
	return nil
}

func (r *recorder) pass(seat int) error {
	h := &r.m.hand
	if h.canPlay(seat) {
		return ErrMustPlay
	}
	if len(h.boneyard) > 0 {
		return ErrMustDraw
	}
	return r.raise(TurnPassed{Seat: seat})
}

func contains(hand []Tile, t Tile) bool {
	for _, h := range hand {
		if h == t {
			return true
		}
	}
	return false
}
