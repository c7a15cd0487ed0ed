package domain

import (
	"fmt"
	"slices"
)

// Apply folds one event into the match. It checks that the event is the next in sequence and
// consistent with the state, so a corrupt log is caught rather than silently folded.
func (m *Match) Apply(e Event) error {
	if e.Seq != m.version+1 {
		return fmt.Errorf("apply seq %d: match is at version %d", e.Seq, m.version)
	}
	if e.Data == nil || e.Data.EventType() != e.Type {
		return fmt.Errorf("apply seq %d: payload does not match type %q", e.Seq, e.Type)
	}
	if m.version == 0 && e.Type != TypeMatchCreated {
		return fmt.Errorf("apply seq %d: a log starts with %s, not %s", e.Seq, TypeMatchCreated, e.Type)
	}
	if m.Closed() {
		return fmt.Errorf("apply seq %d: %s after the match ended", e.Seq, e.Type)
	}
	var err error
	switch d := e.Data.(type) {
	case MatchCreated:
		err = m.applyCreated(d, e)
	case HandStarted:
		err = m.applyHandStarted(d)
	case TilePlayed:
		err = m.applyPlayed(d)
	case TileDrawn:
		err = m.applyDrawn(d)
	case TurnPassed:
		err = m.applyPassed(d)
	case HandEnded:
		err = m.applyHandEnded(d)
	case MatchEnded:
		err = m.applyMatchEnded(d)
	case MatchCancelled, SeatResigned:
		err = m.applyConsentEvent(d)
	default:
		err = m.applySeatEvent(e.Data)
	}
	if err != nil {
		return fmt.Errorf("apply seq %d (%s): %w", e.Seq, e.Type, err)
	}
	m.version = e.Seq
	m.updatedAt = e.At
	return nil
}

func (m *Match) applyCreated(d MatchCreated, e Event) error {
	if e.Seq != 1 {
		return fmt.Errorf("match.created must be the first event")
	}
	table, err := NewTable(len(d.Players), d.Partnerships)
	if err != nil {
		return err
	}
	m.info = d
	m.info.Players = slices.Clone(d.Players)
	m.players = slices.Clone(d.Players)
	m.autoplay = make([]bool, len(d.Players))
	m.timeouts = make([]int, len(d.Players))
	m.resigned = make([]bool, len(d.Players))
	m.table = table
	m.scores = make([]int, table.Sides())
	m.createdAt = e.At
	return nil
}

func (m *Match) applyHandStarted(d HandStarted) error {
	if m.hand.hands != nil && !m.hand.over {
		return fmt.Errorf("hand %d started while hand %d is in play", d.Hand, m.hand.number)
	}
	if len(d.Hands) != m.table.players || d.Leader < 0 || d.Leader >= m.table.players {
		return fmt.Errorf("deal does not fit the table")
	}
	if open := m.unfilledSeats(); len(open) > 0 {
		return fmt.Errorf("a hand dealt while seats %v are open", open)
	}
	hands := make([][]Tile, len(d.Hands))
	for s, h := range d.Hands {
		if h == nil {
			return fmt.Errorf("seat %d's hand is missing: a redacted log cannot be folded", s)
		}
		hands[s] = slices.Clone(h)
	}
	m.hand = handState{
		number:   d.Hand,
		hands:    hands,
		boneyard: slices.Clone(d.Boneyard),
		turn:     d.Leader,
	}
	if d.Lead == LeadHighestDouble {
		_, double, ok := Deal{Hands: hands}.HighestDouble()
		if !ok {
			return fmt.Errorf("highest-double lead with no double dealt")
		}
		m.hand.mustLead = &double
	}
	m.hands = d.Hand
	m.timingOut = -1
	return nil
}

func (m *Match) applyPlayed(d TilePlayed) error {
	h := &m.hand
	if h.hands == nil || h.over || d.Seat != h.turn {
		return fmt.Errorf("seat %d played out of turn", d.Seat)
	}
	if !h.line.Fits(d.Tile, d.End) {
		return fmt.Errorf("%s does not fit the %s end", d.Tile, d.End)
	}
	hand, ok := removeTile(h.hands[d.Seat], d.Tile)
	if !ok {
		return fmt.Errorf("seat %d does not hold %s", d.Seat, d.Tile)
	}
	m.acted(d.Seat)
	h.hands[d.Seat] = hand
	h.line = h.line.With(d.Tile, d.End)
	h.mustLead = nil
	m.scores[m.table.SideOf(d.Seat)] += d.Points
	h.turn = (d.Seat + 1) % m.table.players
	m.timingOut = -1
	return nil
}

func (m *Match) applyDrawn(d TileDrawn) error {
	h := &m.hand
	if h.hands == nil || h.over || d.Seat != h.turn || len(h.boneyard) == 0 {
		return fmt.Errorf("seat %d cannot draw now", d.Seat)
	}
	if d.Tile == nil || *d.Tile != h.boneyard[0] {
		return fmt.Errorf("drawn tile is not the front of the boneyard")
	}
	m.acted(d.Seat)
	h.hands[d.Seat] = append(h.hands[d.Seat], h.boneyard[0])
	h.boneyard = h.boneyard[1:]
	return nil
}

func (m *Match) applyPassed(d TurnPassed) error {
	h := &m.hand
	if h.hands == nil || h.over || d.Seat != h.turn {
		return fmt.Errorf("seat %d passed out of turn", d.Seat)
	}
	m.acted(d.Seat)
	h.turn = (d.Seat + 1) % m.table.players
	m.timingOut = -1
	return nil
}

func (m *Match) applyHandEnded(d HandEnded) error {
	if m.hand.hands == nil || m.hand.over || len(d.Scores) != len(m.scores) {
		return fmt.Errorf("hand.ended with no hand in play")
	}
	if d.WinnerSide != nil {
		if *d.WinnerSide < 0 || *d.WinnerSide >= len(m.scores) {
			return fmt.Errorf("no side %d", *d.WinnerSide)
		}
		m.scores[*d.WinnerSide] += d.Points
	}
	if !slices.Equal(m.scores, d.Scores) {
		return fmt.Errorf("recorded scores %v disagree with the fold %v", d.Scores, m.scores)
	}
	// The last hand's line and hands stay readable until the next deal replaces them.
	m.hand.over = true
	return nil
}

func (m *Match) applyMatchEnded(d MatchEnded) error {
	if !slices.Equal(m.scores, d.Scores) {
		return fmt.Errorf("recorded scores %v disagree with the fold %v", d.Scores, m.scores)
	}
	if d.WinnerSide < 0 || d.WinnerSide >= len(m.scores) {
		return fmt.Errorf("no side %d", d.WinnerSide)
	}
	m.finished = true
	m.winnerSide = d.WinnerSide
	return nil
}
