package domain

import (
	"fmt"
	"time"
)

// Act decides seat's move and applies the events it causes, returning them: Decide then
// Apply, the one command path for a move on a live match (the referee's, the simulator's and
// the test harnesses'). A refused move leaves the match as it was. Whoever serves computer
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
