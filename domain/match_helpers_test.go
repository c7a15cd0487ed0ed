package domain

import "time"

// decideApply decides seat's move on m and applies the events it yields, as a service does.
func decideApply(m *Match, seat int, mv Move, at time.Time) ([]Event, error) {
	events, err := m.Decide(seat, mv, at)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if err := m.Apply(e); err != nil {
			return nil, err
		}
	}
	return events, nil
}
