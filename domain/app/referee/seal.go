package referee

import (
	"context"
	"errors"
	"sync"

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
	return s.askSealer(ctx, *f, m.ID(), m.Commitment())
}

// askSealer asks f about match id, remembering a commitment it says is not sealed: a round
// stores its seal before any match is dealt from it, so a match that exists and is not sealed
// never will be, and its reads need not ask the store again.
func (s *MatchService) askSealer(ctx context.Context, f Sealer, id, commitment string) (bool, error) {
	if s.unsealed.has(commitment) {
		return false, nil
	}
	sealed, err := f(ctx, id, commitment)
	if err == nil && !sealed {
		s.unsealed.add(commitment)
	}
	return sealed, err
}

// maxUnsealed bounds the commitments unsealedSet remembers; past it the set starts afresh,
// which costs one store read per seeded match read next.
const maxUnsealed = 4096

// unsealedSet is the commitments of matches known never to be sealed.
type unsealedSet struct {
	mu    sync.Mutex
	known map[string]struct{}
}

func (u *unsealedSet) has(commitment string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	_, ok := u.known[commitment]
	return ok
}

func (u *unsealedSet) add(commitment string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.known == nil || len(u.known) >= maxUnsealed {
		u.known = map[string]struct{}{}
	}
	u.known[commitment] = struct{}{}
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
		return v, domain.ErrMatchSealed // the same words for every match: see Sealed
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

// Sealed says whether match id is sealed now (docs/tournaments.md, "Sealed matches"): the
// check every request about a match passes first, and a review's, which waits for its round.
// It is judged from what never changes of a match, whether its seed was chosen and its
// commitment, so any copy of it will do: a cached one is not confirmed with the store. A
// match whose log does not fold is judged from its stored match.created, so that a damaged
// record of a sealed match is sealed as well. A match not found is domain.ErrMatchNotFound;
// without a Sealer nothing is sealed, and nothing is read. An error reading the seal is
// returned: the caller refuses rather than guesses.
func (s *MatchService) Sealed(ctx context.Context, id string) (bool, error) {
	f := s.sealer.Load()
	if f == nil {
		return false, nil
	}
	var m *domain.Match
	if e := s.cache.peek(id); e != nil {
		m = e.snap.Load().match
	} else {
		snap, err := s.snapshot(ctx, id)
		var ce *CorruptError
		switch {
		case errors.As(err, &ce):
			// A match.created that cannot be read either is judged as the audit judges a
			// log without one (sealForLog): not sealed, so that the audit still says what is
			// wrong; every other read of such a record fails as corrupt.
			events, rerr := s.store.Events(ctx, id, 0, 1)
			if rerr != nil {
				return false, nil
			}
			return s.sealedByLog(ctx, id, events)
		case err != nil:
			return false, err
		}
		m = snap.match
	}
	if !m.Seeded() {
		return false, nil
	}
	return s.askSealer(ctx, *f, id, m.Commitment())
}

// sealedByLog is Sealed judged from a log's match.created.
func (s *MatchService) sealedByLog(ctx context.Context, id string, events []domain.Event) (bool, error) {
	f := s.sealer.Load()
	if f == nil || len(events) == 0 {
		return false, nil
	}
	mc, ok := events[0].Data.(domain.MatchCreated)
	if !ok || !mc.Seeded {
		return false, nil
	}
	return (*f)(ctx, id, mc.Commitment)
}

// refuseSealed is domain.ErrMatchSealed when match id is sealed: the commands no seat of a
// sealed match gives (a join, a decline, a rematch) are refused before anything else, so that
// none of their answers tells a table anything of another.
func (s *MatchService) refuseSealed(ctx context.Context, id string) error {
	sealed, err := s.Sealed(ctx, id)
	switch {
	case err != nil:
		return err
	case sealed:
		return domain.ErrMatchSealed
	}
	return nil
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
			if sealed, err := s.Sealed(ctx, h.ID); err != nil || sealed {
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
	sealed, err := s.sealedByLog(ctx, id, events)
	switch _, seat := v.Seat(); {
	case err != nil:
		return v, err
	case !sealed:
		return v, nil
	case !seat:
		return v, domain.ErrMatchSealed
	}
	return v.Sealed(), nil
}
