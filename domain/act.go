package domain

import (
	"fmt"
	"time"
)

// Act decides seat's move and applies the events it causes, returning them: Decide then
// Apply, the command path for a move on a live match (the simulator's and the test
// harnesses'; the referee, which plays on a working copy of its own, takes ActInPlace). A
// refused move leaves the match as it was. Whoever serves computer
// players records the events in its HandLog too.
func (m *Match) Act(seat int, mv Move, at time.Time) ([]Event, error) {
	events, err := m.Decide(seat, mv, at)
	if err != nil {
		return nil, err
	}
	if err := m.ApplyAll(events); err != nil {
		return nil, fmt.Errorf("apply a decided event: %w", err)
	}
	return events, nil
}

// ActInPlace is Act for a caller that plays on a copy of its own (the referee's working copy):
// the move is decided on m itself, without Decide's scratch copy and without folding its
// events a second time, and the events and the state it leaves are Act's. A refused move
// (not the seat's turn, a tile it does not hold, an end that does not fit, a draw or a pass
// the rules forbid) leaves m as it was: every check comes before the first event. An error
// after the first event, which only a fault of the rules' own can cause, may leave m part-way
// (its Version then moved), and the caller throws m away.
func (m *Match) ActInPlace(seat int, mv Move, at time.Time) ([]Event, error) {
	if err := m.checkTurn(seat); err != nil {
		return nil, err
	}
	return m.execute(seat, mv, at)
}

// ApplyAll folds events in order, as Apply does each, stopping at the first that does not
// fold. Events another command decided (a join, a timeout) are folded through it.
func (m *Match) ApplyAll(events []Event) error {
	for _, e := range events {
		if err := m.Apply(e); err != nil {
			return err
		}
	}
	return nil
}
