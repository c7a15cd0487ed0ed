package referee

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/allfives/allfives/domain"
)

// RematchStore is what a store implements for rematches (docs/api-players.md, "Players"). Every
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
// or a player key of one of its seats). The first call offers it (docs/api-matches.md, "Consent"):
// the next match, with the same seats and settings but a new secret seed, waits with the
// caller's seat taken, bots seated, and every other human seat reserved for its holder here,
// who has the server's rematch TTL to accept by calling Rematch in turn; the last acceptance
// deals. Each call by a seat that has not accepted yet takes its seat and draws its token,
// which only that answer shows; later calls answer the match and no token. A sealed match
// has none until its round ends (ErrMatchSealed): the next match, listed as any other, would
// show who sat at its table and that it has ended.
func (s *MatchService) Rematch(ctx context.Context, id, token string) (_ Rematched, err error) {
	defer domain.Wrap(&err, "rematch %s", id)
	st, ok := s.store.(RematchStore)
	if !ok {
		return Rematched{}, errNoRematch
	}
	if err := s.refuseSealed(ctx, id); err != nil {
		return Rematched{}, err
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
	var offered *Rematched
	if next == "" {
		next = rematchID(id)
		if offered, err = s.offerRematch(ctx, e, next, seat); err != nil {
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
	if offered != nil {
		return *offered, nil
	}
	res, err := s.acceptRematch(ctx, st, next, seat)
	if errors.Is(err, domain.ErrVersionConflict) {
		res, err = s.acceptRematch(ctx, st, next, seat) // another instance moved it: decide again
	}
	return res, err
}

// rematchSpec is the offer of a rematch of m by seat: m's settings, m's seats with every other
// human seat reserved for its holder (its player, or, anonymous, its name), never listed and
// never a chosen seed; an offer for as long as the rematch TTL when any seat is reserved.
func (s *MatchService) rematchSpec(m *domain.Match, seat int) domain.MatchSpec {
	spec := m.Spec()
	spec.Players, spec.Listed, spec.Seeded, spec.OfferSeconds = m.Players(), false, false, 0
	for i, p := range spec.Players {
		if p.Kind == domain.Human && i != seat {
			spec.Players[i] = domain.PlayerInfo{Seat: i, Kind: domain.Open, ReservedFor: domain.Reservation{ID: p.Player, Name: p.Name}}
			spec.OfferSeconds = int(s.rematchTTL / time.Second)
		}
	}
	return spec
}

// offerRematch stores the rematch of e's match under id next, offered by seat, and answers it
// as that seat sees it with its token; the caller holds e's lock. When another instance
// stored it first, it answers nil: the caller then accepts the stored offer.
func (s *MatchService) offerRematch(ctx context.Context, e *entry, next string, seat int) (*Rematched, error) {
	seed, _, err := s.seedFor("") // always a new secret seed, never the old one or a chosen one
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	events, err := domain.Start(s.rematchSpec(e.match, seat), seed, now)
	if err != nil {
		return nil, err
	}
	g, err := newGame(next, seed, events)
	if err != nil {
		return nil, err
	}
	more, err := s.runBots(ctx, g, now) // with no seat to wait for, the rematch is dealt
	if err != nil {
		return nil, err
	}
	events = append(events, more...)
	token, hash, err := s.newSecret(32)
	if err != nil {
		return nil, err
	}
	rec := MatchRecord{ID: next, Seed: seed, CreatedAt: now, RematchOf: e.match.ID()}
	for _, sr := range e.record.Seats {
		out := SeatRecord{Seat: sr.Seat, Name: sr.Name, Kind: sr.Kind, Bot: sr.Bot, Player: sr.Player}
		switch {
		case sr.Seat == seat:
			out.TokenHash = hash
		case sr.Kind == domain.Human:
			out.Name, out.Kind = "", domain.Open // reserved for its holder, as a challenge's seat
		}
		rec.Seats = append(rec.Seats, out)
	}
	err = s.store.Create(ctx, rec, events, g.match.Summary())
	var vc *domain.VersionConflictError
	if errors.As(err, &vc) && vc.Expected == 0 {
		return nil, nil // another instance created it first
	}
	if err != nil {
		return nil, err
	}
	fresh := &entry{keysAll: true}
	fresh.setRecord(rec)
	fresh.set(g)
	s.cache.unpin(s.cache.put(fresh))
	s.watch.wake(next) // WatchAll's followers: the players' streams hear of the offer
	s.handOn(next, g.match, time.Now())
	return &Rematched{Match: g.match.View(domain.SeatViewer(seat)), Token: token}, nil
}

// acceptRematch answers rematch next to the holder of seat in the match it follows: its seat
// taken now if it is still reserved for it (the last acceptance deals), or the match as the
// seat sees it when taken already. A rematch stored before offers were (every human seat dealt
// in, its token unclaimed) is claimed as it was then.
func (s *MatchService) acceptRematch(ctx context.Context, st RematchStore, next string, seat int) (Rematched, error) {
	e, err := s.acquire(ctx, next)
	if err != nil {
		return Rematched{}, err
	}
	m, sr := e.match, seatRecord(e.record, seat)
	if c, ok := m.Cancellation(); ok {
		s.release(e)
		return Rematched{}, fmt.Errorf("%w (%s)", domain.ErrRematchCancelled, c.Reason)
	}
	if m.Player(seat).Kind == domain.Human {
		s.release(e)
		if len(sr.TokenHash) == 0 {
			return s.claim(ctx, st, next, seat)
		}
		return Rematched{Match: m.View(domain.SeatViewer(seat))}, nil
	}
	defer s.release(e)
	r := m.Player(seat).ReservedFor
	work := e.working()
	events, err := work.match.DecideJoinAs(seat, r.Name, r.ID, s.clock.Now())
	if err != nil {
		return Rematched{}, err
	}
	token, hash, err := s.newSecret(32)
	if err != nil {
		return Rematched{}, err
	}
	sr.Name, sr.Kind, sr.TokenHash, sr.Player = r.Name, domain.Human, hash, r.ID
	if err := s.commit(ctx, e, work, events, sr); err != nil {
		return Rematched{}, err
	}
	return Rematched{Match: work.match.View(domain.SeatViewer(seat)), Token: token}, nil
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
