package referee

import (
	"fmt"
	"time"

	"github.com/allfives/allfives/domain"
)

// table is a match as the service plays it: the aggregate and this hand's log, which computer
// players see through their seat's view. A command plays on a working copy (entry.working),
// which becomes the cached state only once the store holds its events.
type table struct {
	match *domain.Match
	hands domain.HandLog
}

// newTable folds a stored log into a table that can deal from seed.
func newTable(id string, seed domain.Seed, events []domain.Event) (*table, error) {
	m, err := domain.Resume(id, seed, events)
	if err != nil {
		return nil, err
	}
	t := &table{match: m}
	t.hands.Record(events...)
	return t, nil
}

// play decides seat's move and applies the events it yields: the aggregate's public command
// path, Decide then Apply.
func (t *table) play(seat int, mv domain.Move, at time.Time) ([]domain.Event, error) {
	events, err := t.match.Decide(seat, mv, at)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if err := t.match.Apply(e); err != nil {
			return nil, fmt.Errorf("apply a decided event: %w", err)
		}
	}
	t.hands.Record(events...)
	return events, nil
}

// clone is a copy to play on without touching t.
func (t *table) clone() *table {
	return &table{match: t.match.Clone(), hands: t.hands.Clone()}
}

// apply folds events decided on t's match (a join, a timeout) into it and its hand log.
func (t *table) apply(events []domain.Event) error {
	for _, e := range events {
		if err := t.match.Apply(e); err != nil {
			return fmt.Errorf("apply a decided event: %w", err)
		}
	}
	t.hands.Record(events...)
	return nil
}
