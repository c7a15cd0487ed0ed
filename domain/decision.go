package domain

import "fmt"

// A decision (docs/review.md, "Explore") is an event a seat chose: a play, a draw or a pass by
// the seat to move, when it had at least two legal moves. The review judges exactly these;
// Explore answers their options and Play on starts a branch before one.

// MaxStep is the largest step a request may name (a branch's body): far beyond any match's
// version, it bounds the number read, and a step past the log is refused by the log.
const MaxStep = 1000000

// ActionOf reads the seat and the move of an event a seat's choice made (tile.played,
// tile.drawn, turn.passed); ok is false for any other event.
func ActionOf(e Event) (seat int, mv LegalMove, ok bool) {
	switch d := e.Data.(type) {
	case TilePlayed:
		return d.Seat, LegalMove{Action: ActionPlay, Tile: d.Tile, End: d.End}, true
	case TileDrawn:
		return d.Seat, LegalMove{Action: ActionDraw}, true
	case TurnPassed:
		return d.Seat, LegalMove{Action: ActionPass}, true
	}
	return 0, LegalMove{}, false
}

// DecisionAt is the view of the seat that made event seq of events (a whole log from seq 1)
// just before it made it: ErrInvalid for a seq outside the log, ErrNotADecision for an event
// that is not a decision. A log that does not fold answers the fold's error.
func DecisionAt(events []Event, seq int) (SeatView, error) {
	if seq < 1 || seq > len(events) {
		return SeatView{}, Invalidf("step must be an integer from 1 to the match's version %d, got %d", len(events), seq)
	}
	if seq == 1 {
		return SeatView{}, fmt.Errorf("%w: event 1 creates the match", ErrNotADecision)
	}
	m, err := Rebuild("decision", events[:1])
	if err != nil {
		return SeatView{}, err
	}
	var log HandLog
	log.Record(events[0])
	for _, e := range events[1 : seq-1] {
		if err := m.Apply(e); err != nil {
			return SeatView{}, err
		}
		log.Record(e)
	}
	seat, _, ok := ActionOf(events[seq-1])
	if !ok || seat != m.Turn() {
		return SeatView{}, fmt.Errorf("%w: event %d is a %s", ErrNotADecision, seq, events[seq-1].Type)
	}
	v := m.SeatView(seat, log)
	if len(v.LegalMoves) < 2 {
		return SeatView{}, fmt.Errorf("%w: event %d was the seat's only legal move", ErrNotADecision, seq)
	}
	return v, nil
}
