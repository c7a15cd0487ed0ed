package domain

import "slices"

// SeatView is everything one seat may know while the match is live: what a computer player
// decides from. It is built only through Match.SeatView, which copies the seat's own tiles and
// redacts the hand's history for that seat, so a strategy cannot reach another hand.
type SeatView struct {
	Seat       int
	Table      Table
	Target     int
	Scores     []int
	HandNumber int
	Hand       []Tile
	Line       Line
	HandSizes  []int
	Boneyard   int
	LegalMoves []LegalMove
	// History is this hand's events so far, as the seat may see them (hand.started first).
	History []Event
}

// SeatView returns what seat may know now, with this hand's history from log.
func (m *Match) SeatView(seat int, log HandLog) SeatView {
	sv := SeatView{
		Seat: seat, Table: m.table, Target: m.info.Target, Scores: m.Scores(),
		HandNumber: m.hand.number, Hand: m.handOf(seat), Line: m.hand.line,
		Boneyard: len(m.hand.boneyard), LegalMoves: m.LegalMoves(seat),
		HandSizes: make([]int, m.table.players),
	}
	for s := range sv.HandSizes {
		sv.HandSizes[s] = m.tilesHeld(s)
	}
	sv.History = SeatViewer(seat).RedactAll(log.events, false)
	return sv
}

// HandLog is the current hand's events, kept by whoever serves computer players (the match
// itself keeps no history: folding a log for a read should not pay for it). Record every event
// the match applies, in order; a new deal starts a new log.
type HandLog struct {
	events []Event
}

// Record adds events to the log.
func (l *HandLog) Record(events ...Event) {
	for _, e := range events {
		switch e.Type {
		case TypeMatchCreated:
			continue
		case TypeHandStarted:
			l.events = nil
		case TypeSeatJoined, TypeSeatLeft, TypeTurnTimedOut, TypeSeatAutoplay, TypeSeatResumed, TypeMatchExpired,
			TypeMatchCancelled, TypeSeatResigned:
			// Who sits where, who is on the clock and who gave up says nothing about the
			// tiles: computer players see only the hand's game events.
			continue
		}
		l.events = append(l.events, e)
	}
}

// Clone is a copy that records on its own without writing into l's events.
func (l HandLog) Clone() HandLog { return HandLog{events: slices.Clip(l.events)} }

// Events is a copy of the log's events, in order: the History of a SeatView built outside the
// match (an engine folding its seat's events builds the same view the referee does).
func (l HandLog) Events() []Event { return slices.Clone(l.events) }

// Len is the number of events in the log.
func (l HandLog) Len() int { return len(l.events) }
