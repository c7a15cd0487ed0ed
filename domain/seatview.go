package domain

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

// SeatView returns what seat may know now.
func (m *Match) SeatView(seat int) SeatView {
	v := SeatViewer(seat)
	sv := SeatView{
		Seat: seat, Table: m.table, Target: m.info.Target, Scores: m.Scores(),
		HandNumber: m.hand.number, Hand: m.handOf(seat), Line: m.hand.line,
		Boneyard: len(m.hand.boneyard), LegalMoves: m.LegalMoves(seat),
		HandSizes: make([]int, m.table.players),
	}
	for s := range sv.HandSizes {
		sv.HandSizes[s] = m.tilesHeld(s)
	}
	sv.History = v.RedactAll(m.handLog, false)
	return sv
}

// recordHandLog keeps the current hand's events for seat views; a new deal starts a new log.
func (m *Match) recordHandLog(e Event) {
	if m.noLog {
		return
	}
	switch e.Type {
	case TypeMatchCreated:
		return
	case TypeHandStarted:
		m.handLog = nil
	}
	m.handLog = append(m.handLog, e)
}
