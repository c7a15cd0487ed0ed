package referee

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// RematchStore is what a store implements for rematches (docs/api.md, "Players"). Every
// store in repository/ implements it.
type RematchStore interface {
	// LinkRematch sets the next_match_id of finished match id to next, unless it names
	// another match already (then it is left, and no error). Unknown id: ErrMatchNotFound.
	LinkRematch(ctx context.Context, id, next string) error
	// ClaimSeat stores hash as the token hash of seat in match id if that human seat has none
	// yet, and reports whether it did: of two claims exactly one wins.
	ClaimSeat(ctx context.Context, id string, seat int, hash []byte) (bool, error)
}

// Rematched is the answer to a rematch: the next match as the caller's seat sees it, and
// that seat's token in it, shown to the first call of the seat's holder only (empty after).
type Rematched struct {
	Match domain.MatchView
	Token string
}

// errNoRematch is a store that cannot keep rematches.
var errNoRematch = errors.New("the store does not keep rematches")

// rematchID is the id of match id's rematch: derived, not drawn, so that two instances
// creating it at once create one match (the second Create is a conflict on the id). Match ids
// are public; nothing secret is derived.
func rematchID(id string) string {
	sum := sha256.Sum256([]byte("allfives rematch v1|" + id))
	return hex.EncodeToString(sum[:16])
}

// Rematch answers the next match of finished match id to the holder of token (a seat token
// or a player key of one of its seats): the first call creates it, with the same players in
// the same seats and the same settings but a new secret seed, and every later call answers
// the same match. Each human seat of the rematch starts unclaimed; the first call of the old
// seat's holder draws its token, which only that call shows. A bound seat's player also plays
// it with its key.
func (s *MatchService) Rematch(ctx context.Context, id, token string) (_ Rematched, err error) {
	defer domain.Wrap(&err, "rematch %s", id)
	st, ok := s.store.(RematchStore)
	if !ok {
		return Rematched{}, errNoRematch
	}
	v, err := s.Authenticate(ctx, id, token)
	if err != nil {
		return Rematched{}, err
	}
	seat, ok := v.Seat()
	if !ok {
		return Rematched{}, fmt.Errorf("%w: a rematch is asked by a seat of the match", domain.ErrUnauthorized)
	}
	e, err := s.acquire(ctx, id)
	if err != nil {
		return Rematched{}, err
	}
	if !e.match.Finished() {
		s.release(e)
		return Rematched{}, fmt.Errorf("%w: only a finished match has a rematch", domain.ErrMatchNotFinished)
	}
	next := e.record.NextMatchID
	if next == "" {
		next = rematchID(id)
		if err := s.createRematch(ctx, e, next); err != nil {
			s.release(e)
			return Rematched{}, err
		}
		if err := st.LinkRematch(ctx, id, next); err != nil {
			s.release(e)
			return Rematched{}, err
		}
		rec := e.record
		rec.NextMatchID = next
		e.setRecord(rec)
	}
	s.release(e)
	return s.claim(ctx, st, next, seat)
}

// createRematch stores the rematch of e's match under id next; the caller holds e's lock. A
// rematch another instance stored first is kept.
func (s *MatchService) createRematch(ctx context.Context, e *entry, next string) error {
	old := e.match.View(domain.Spectator())
	spec := domain.MatchSpec{
		Players: e.match.Players(), Partnerships: old.Partnerships, Target: e.match.Target(),
		Listed: e.match.Listed(), TurnSeconds: e.match.TurnSeconds(), AutoplayAfter: e.match.AutoplayAfter(),
		Rated: e.match.Rated(),
	}
	seed, _, err := s.seedFor("") // always a new secret seed, never the old one or a chosen one
	if err != nil {
		return err
	}
	now := s.clock.Now()
	events, err := domain.Start(spec, seed, now)
	if err != nil {
		return err
	}
	g, err := newGame(next, seed, events)
	if err != nil {
		return err
	}
	more, err := s.runBots(ctx, g, now)
	if err != nil {
		return err
	}
	events = append(events, more...)
	rec := MatchRecord{ID: next, Seed: seed, CreatedAt: now, RematchOf: e.match.ID()}
	for _, sr := range e.record.Seats {
		// A human seat keeps its name and player, and waits for its holder to claim a token.
		rec.Seats = append(rec.Seats, SeatRecord{Seat: sr.Seat, Name: sr.Name, Kind: sr.Kind, Bot: sr.Bot, Player: sr.Player})
	}
	err = s.store.Create(ctx, rec, events, g.match.Summary())
	var vc *domain.VersionConflictError
	if errors.As(err, &vc) && vc.Expected == 0 {
		return nil // another instance created it first
	}
	if err == nil {
		s.watch.wake(next) // WatchAll's followers: the players' streams hear of the rematch
	}
	return err
}

// claim gives seat of rematch next its token, if its holder has not claimed it yet, and
// answers the rematch as the seat sees it.
func (s *MatchService) claim(ctx context.Context, st RematchStore, next string, seat int) (Rematched, error) {
	token, hash, err := s.newSecret(32)
	if err != nil {
		return Rematched{}, err
	}
	won, err := st.ClaimSeat(ctx, next, seat, hash)
	if err != nil {
		return Rematched{}, err
	}
	e, err := s.acquire(ctx, next)
	if err != nil {
		return Rematched{}, err
	}
	defer s.release(e)
	out := Rematched{Match: e.match.View(domain.SeatViewer(seat))}
	if won {
		sr := seatRecord(e.record, seat)
		sr.TokenHash = hash
		e.setRecord(withSeats(e.record, []SeatRecord{sr}))
		out.Token = token
	}
	return out, nil
}

// NextMatchID is the rematch of match id, or "" when none was asked for. It takes no lock:
// a state read asks it beside the view.
func (s *MatchService) NextMatchID(ctx context.Context, id string) (string, error) {
	e, err := s.load(ctx, id)
	if err != nil {
		return "", err
	}
	defer s.cache.unpin(e)
	if p := e.next.Load(); p != nil {
		return *p, nil
	}
	return "", nil
}

// unclaimed reports whether a human seat of seats has no token yet: a rematch's seat whose
// holder may have claimed it on another instance since seats were read.
func unclaimed(seats []SeatRecord) bool {
	for _, sr := range seats {
		if sr.Kind == domain.Human && len(sr.TokenHash) == 0 {
			return true
		}
	}
	return false
}
