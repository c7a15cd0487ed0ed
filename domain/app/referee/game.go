package referee

import (
	"fmt"
	"time"

	"github.com/allfives/allfives/domain"
)

// game is a match in play as the service plays it: the aggregate and this hand's log, which
// computer players see through their seat's view. A command plays on a working copy
// (entry.working), which becomes the cached state only once the store holds its events.
type game struct {
	match *domain.Match
	hands domain.HandLog
}

// newGame folds a stored log into a game that can deal from seed.
func newGame(id string, seed domain.Seed, events []domain.Event) (*game, error) {
	m, err := domain.Resume(id, seed, events)
	if err != nil {
		return nil, err
	}
	g := &game{match: m}
	g.hands.Record(events...)
	return g, nil
}

// play decides seat's move, applies the events it yields and records them in the hand log.
// g is always a working copy (entry.working), so the move is played in place: a refused move
// leaves g as it was, and an error after its first event (a fault of the rules, which moves
// g's version) leaves g to be thrown away, as every caller does with a working copy that failed.
func (g *game) play(seat int, mv domain.Move, at time.Time) ([]domain.Event, error) {
	events, err := g.match.ActInPlace(seat, mv, at)
	if err != nil {
		return nil, err
	}
	g.hands.Record(events...)
	return events, nil
}

// clone is a copy to play on without touching g.
func (g *game) clone() *game {
	return &game{match: g.match.Clone(), hands: g.hands.Clone()}
}

// apply folds events decided on g's match (a join, a timeout) into it and its hand log.
func (g *game) apply(events []domain.Event) error {
	if err := g.match.ApplyAll(events); err != nil {
		return fmt.Errorf("apply a decided event: %w", err)
	}
	g.hands.Record(events...)
	return nil
}
