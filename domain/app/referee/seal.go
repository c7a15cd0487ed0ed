package referee

import (
	"context"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// Sealer says whether match id, dealt from the seed whose commitment is commitment, belongs to
// a duplicate round still being played (docs/tournaments.md, "Sealed matches"). The tournament
// service implements it from its store, so that every instance agrees.
type Sealer func(ctx context.Context, id, commitment string) (bool, error)

// SetSealer makes every read of a match ask f whether the match is sealed. Only a match dealt
// from a chosen seed is ever asked about: a tournament's duplicate round chooses its seed, and
// no other match can share a seed no one else knows.
func (s *MatchService) SetSealer(f Sealer) { s.sealer.Store(&f) }

// isSealed says whether m is sealed now.
func (s *MatchService) isSealed(ctx context.Context, m *domain.Match) (bool, error) {
	f := s.sealer.Load()
	if f == nil || !m.Seeded() {
		return false, nil
	}
	return (*f)(ctx, m.ID(), m.Commitment())
}

// sealFor is v as it may read m: sealed when m is (domain/seal.go). Only a seat of a sealed
// match reads it: even its score, turn and tile counts would tell another table of the same
// cards something of its deal (a lead that scores 10 is the 5-5), so a spectator is refused
// with domain.ErrMatchSealed. record says the read shows the log; a view that fails to learn
// whether the match is sealed fails closed instead of failing.
func (s *MatchService) sealFor(ctx context.Context, m *domain.Match, v domain.Viewer, record bool) (domain.Viewer, error) {
	sealed, err := s.isSealed(ctx, m)
	switch {
	case err != nil && record:
		return v, err
	case err == nil && !sealed:
		return v, nil
	}
	// Sealed, or a view that could not learn whether it is: a view fails closed, since the
	// answer to a move that committed must not become an error.
	if _, seat := v.Seat(); !seat {
		return v, fmt.Errorf("match %s: %w", m.ID(), domain.ErrMatchSealed)
	}
	return v.Sealed(), nil
}

// sealForID is sealFor for match id, read from its published snapshot.
func (s *MatchService) sealForID(ctx context.Context, id string, v domain.Viewer, record bool) (domain.Viewer, error) {
	snap, err := s.snapshot(ctx, id)
	if err != nil {
		return v, err
	}
	return s.sealFor(ctx, snap.match, v, record)
}

// Sealed says whether match id is sealed now: a review waits for its round to end.
func (s *MatchService) Sealed(ctx context.Context, id string) (bool, error) {
	snap, err := s.snapshot(ctx, id)
	if err != nil {
		return false, err
	}
	return s.isSealed(ctx, snap.match)
}

// drawnSeed is the seed checkRated judges: none for a tournament's match, whose seed the
// tournament drew for a duplicate round and no player chose.
func drawnSeed(req CreateRequest) string {
	if req.Entered {
		return ""
	}
	return req.Seed
}

// unsealed leaves out of a listing the matches that are sealed now: a history item's scores,
// turn and hands tell as much as a view (docs/tournaments.md, "Sealed matches"). Only items
// dealt from a chosen seed are asked about; one whose seal cannot be read is left out.
func unsealed[T any](ctx context.Context, s *MatchService, items []T, item func(T) HistoryItem) []T {
	if s.sealer.Load() == nil {
		return items
	}
	out := items[:0:0]
	for _, it := range items {
		h := item(it)
		if h.Summary.Seeded {
			snap, err := s.snapshot(ctx, h.ID)
			if err != nil {
				continue
			}
			if sealed, err := s.isSealed(ctx, snap.match); err != nil || sealed {
				continue
			}
		}
		out = append(out, it)
	}
	return out
}

// sealForLog is sealFor for the audit, judged from the stored log's match.created rather than
// the folded match, which a damaged record may not give.
func (s *MatchService) sealForLog(ctx context.Context, id string, events []domain.Event, v domain.Viewer) (domain.Viewer, error) {
	f := s.sealer.Load()
	if f == nil || len(events) == 0 {
		return v, nil
	}
	mc, ok := events[0].Data.(domain.MatchCreated)
	if !ok || !mc.Seeded {
		return v, nil
	}
	sealed, err := (*f)(ctx, id, mc.Commitment)
	switch _, seat := v.Seat(); {
	case err != nil:
		return v, err
	case !sealed:
		return v, nil
	case !seat:
		return v, fmt.Errorf("match %s: %w", id, domain.ErrMatchSealed)
	}
	return v.Sealed(), nil
}
