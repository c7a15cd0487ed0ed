package referee

import (
	"context"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// CorruptError says that a match's stored record cannot be read or cannot be folded into a
// match: it was changed behind the server's back, or the store damaged it. It is
// storeerr.ErrRecordCorrupt naming the match. Its text says nothing of what is wrong, since the
// damaged part may hold hidden tiles; the match's audit, which redacts for its viewer, says
// where (docs/api-records.md, "Replay, audit and export").
type CorruptError struct {
	MatchID string
}

// Error names the match and where to look.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("the stored record of match %s cannot be read or folded; its audit says where", e.MatchID)
}

// Unwrap lets errors.Is(err, storeerr.ErrRecordCorrupt) hold.
func (e *CorruptError) Unwrap() error { return storeerr.ErrRecordCorrupt }

// corrupt turns a store's report of an unreadable row of match id into a *CorruptError, so that
// what the row held never reaches a client, and its report of no such match into notFound's
// words, not the store's (which name the query that found nothing); other errors pass as
// they are.
func corrupt(id string, err error) error {
	if errors.Is(err, domain.ErrMatchNotFound) {
		return notFound(id)
	}
	if err != nil && errors.Is(err, storeerr.ErrRecordCorrupt) {
		var ce *CorruptError
		if errors.As(err, &ce) {
			return ce
		}
		return &CorruptError{MatchID: id}
	}
	return err
}

// notFound says that no match has the id asked for.
func notFound(id string) error {
	if len(id) > 64 {
		id = id[:64] + "..."
	}
	return domain.Detailf(domain.ErrMatchNotFound, "no match has the id %q", id)
}

// foldStored folds a stored log into a game. A log that does not fold is a corrupt record,
// whatever the fold says; a panic in the fold, which a tampered log might provoke, is one too.
func foldStored(id string, seed domain.Seed, events []domain.Event) (g *game, err error) {
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, &CorruptError{MatchID: id}
		}
	}()
	g, err = newGame(id, seed, events)
	if err != nil {
		return nil, &CorruptError{MatchID: id}
	}
	// A seed that is not the one committed to would deal the next hands of another match.
	if seed.Commitment() != g.match.Commitment() {
		return nil, &CorruptError{MatchID: id}
	}
	return g, nil
}

// seatsOf reads match id's seat records straight from the store, for a match whose log cannot
// be folded into the cache: its audit is still open to its seats and spectators.
func (s *MatchService) seatsOf(ctx context.Context, id string) ([]SeatRecord, error) {
	stored, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, corrupt(id, err)
	}
	return stored.Record.Seats, nil
}
