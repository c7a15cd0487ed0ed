package referee

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/names"
)

// Joined is a seat taken by a join: its new token (shown once) and the match as that seat
// sees it.
type Joined struct {
	Seat  int
	Token string
	Match domain.MatchView
}

// JoinRequest asks for an open seat. Invite is needed unless the match is listed.
type JoinRequest struct {
	Seat   int
	Name   string
	Invite string
	// Key, a player key, binds the seat to its player (docs/api-players.md, "Players"): the seat then
	// shows the player's name (Name may be left out, or be that name), and a seat reserved for
	// the player needs no invite.
	Key string

	player string // the id Key authenticated
}

// Join seats a player in an open seat (docs/api-matches.md, "Playing with others"). The last join deals
// the first hand in the same append, and bots to move then play. Of two joins racing for one
// seat, exactly one gets it; the other hears ErrSeatTaken.
func (s *MatchService) Join(ctx context.Context, id string, req JoinRequest) (Joined, error) {
	// A sealed match has no open seat; whether the seat asked for is taken is not said.
	if err := s.refuseSealed(ctx, id); err != nil {
		return Joined{}, err
	}
	if req.Key != "" {
		who, err := s.keyHolder(ctx, req.Key)
		if err != nil {
			return Joined{}, err
		}
		if req.Name != "" && !names.Same(req.Name, who.Name) {
			return Joined{}, errBoundName("name", who.Name)
		}
		// The player's own name, as kept when it was taken: not judged again.
		req.player, req.Name = who.ID, who.Name
	} else {
		name, err := checkName(req.Name)
		if err != nil {
			return Joined{}, domain.Invalidf("name %s", err)
		}
		req.Name = name
	}
	res, err := s.join(ctx, id, req)
	if errors.Is(err, domain.ErrVersionConflict) {
		res, err = s.join(ctx, id, req) // another instance moved the match: decide again
	}
	return res, err
}

func (s *MatchService) join(ctx context.Context, id string, req JoinRequest) (Joined, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return Joined{}, err
	}
	defer s.release(e)
	now := s.clock.Now()
	work := e.working()
	events, err := work.match.DecideJoinAs(req.Seat, req.Name, req.player, now)
	if err != nil {
		return Joined{}, err
	}
	rec := seatRecord(e.record, req.Seat)
	switch reserved := work.match.Player(req.Seat).ReservedFor; {
	case !reserved.IsZero() && reserved.ID == "":
		// A rematch's anonymous seat: its holder's old token accepts it (docs/api-matches.md, "Consent").
		return Joined{}, fmt.Errorf("%w: seat %d is kept for its holder in the match this rematch follows: accept with POST /api/v1/matches/{id}/rematch on that match", domain.ErrUnauthorized, req.Seat)
	case rec.Player != "" && rec.Player != req.player:
		// A challenge: only its player's key takes it, invite or not (docs/api-players.md, "Players").
		return Joined{}, domain.Detailf(domain.ErrUnauthorized, "seat %d is reserved for a player: only that player's key joins it", req.Seat)
	case rec.Player == "" && !work.match.Listed() && !inviteMatches(rec.InviteHash, req.Invite):
		return Joined{}, domain.ErrInvalidInvite
	}
	if req.player != "" {
		if other := seatedElsewhere(e.record.Seats, req.Seat, req.player); other >= 0 {
			return Joined{}, fmt.Errorf("%w: the player holds seat %d", domain.ErrAlreadySeated, other)
		}
	}
	if other := sameNameAs(work.match.Players(), req.Seat, req.Name, req.player); other >= 0 {
		return Joined{}, domain.Invalidf("name %q is the same name as seat %d's (names are compared ignoring case and width, and letters of other scripts that look alike): choose another", req.Name, other)
	}
	token, hash, err := s.newSecret(32)
	if err != nil {
		return Joined{}, err
	}
	rec.Name, rec.Kind, rec.TokenHash, rec.Player = req.Name, domain.Human, hash, req.player
	if err := s.commit(ctx, e, work, events, rec); err != nil {
		return Joined{}, err
	}
	return Joined{Seat: req.Seat, Token: token, Match: work.match.View(domain.SeatViewer(req.Seat))}, nil
}

// inviteMatches compares an invite with the stored hash in constant time; an empty invite or a
// seat with no invite never matches.
func inviteMatches(hash []byte, invite string) bool {
	if invite == "" || len(invite) > 64 || len(hash) != sha256.Size {
		return false
	}
	sum := sha256.Sum256([]byte(invite))
	return subtle.ConstantTimeCompare(hash, sum[:]) == 1
}

// seatRecord is a copy of seat's stored record.
func seatRecord(rec MatchRecord, seat int) SeatRecord {
	for _, sr := range rec.Seats {
		if sr.Seat == seat {
			return sr
		}
	}
	return SeatRecord{Seat: seat}
}

// Leave empties the viewer's seat before the first deal: the seat opens again, and its token
// stops working.
func (s *MatchService) Leave(ctx context.Context, id string, v domain.Viewer, seat int) (domain.MatchView, error) {
	return s.seatCommand(ctx, id, v, seat, func(m *domain.Match, rec *SeatRecord) ([]domain.Event, error) {
		events, err := m.DecideLeave(seat, s.clock.Now())
		// The binding goes with the seat: a challenged player who leaves gives the challenge up.
		rec.Name, rec.Kind, rec.TokenHash, rec.Player = "", domain.Open, nil, ""
		return events, err
	})
}

// Resume gives the viewer's seat back to its player after it was handed to its bot.
func (s *MatchService) Resume(ctx context.Context, id string, v domain.Viewer, seat int) (domain.MatchView, error) {
	return s.seatCommand(ctx, id, v, seat, func(m *domain.Match, _ *SeatRecord) ([]domain.Event, error) {
		return m.DecideResume(seat, s.clock.Now())
	})
}

// seatCommand runs a command of the seat's own holder: decide on a working copy, then commit,
// with the seat's record as decide leaves it.
func (s *MatchService) seatCommand(ctx context.Context, id string, v domain.Viewer, seat int, decide func(*domain.Match, *SeatRecord) ([]domain.Event, error)) (domain.MatchView, error) {
	if own, ok := v.Seat(); !ok || own != seat {
		return domain.MatchView{}, domain.ErrUnauthorized
	}
	e, err := s.acquire(ctx, id)
	if err != nil {
		return domain.MatchView{}, err
	}
	defer s.release(e)
	if e.match.Holder(v) != v {
		return domain.MatchView{}, domain.ErrUnauthorized
	}
	work := e.working()
	rec := seatRecord(e.record, seat)
	before := rec
	events, err := decide(work.match, &rec)
	if err != nil {
		return domain.MatchView{}, err
	}
	var changed []SeatRecord
	if !sameSeat(before, rec) {
		changed = append(changed, rec)
	}
	if err := s.commit(ctx, e, work, events, changed...); err != nil {
		return domain.MatchView{}, err
	}
	if v, err = s.sealFor(ctx, work.match, v, false); err != nil {
		return domain.MatchView{}, err
	}
	return work.match.View(v), nil
}

func sameSeat(a, b SeatRecord) bool {
	return a.Name == b.Name && a.Kind == b.Kind && string(a.TokenHash) == string(b.TokenHash) && a.Player == b.Player
}

// commit applies a command's events to the working copy, lets bots and seats on autoplay play
// on, appends everything with the expected version and the changed seat records, and only then
// installs the copy as the cached state. The caller holds e's lock.
func (s *MatchService) commit(ctx context.Context, e *entry, work *game, events []domain.Event, seats ...SeatRecord) error {
	if err := work.apply(events); err != nil {
		return err
	}
	at := s.clock.Now()
	if len(events) > 0 {
		at = events[0].At // one append, one time (docs/api-matches.md, "Timing")
	}
	// A match whose last human resigned is played by the bot pool, as one of bots only is.
	offPath := s.pool != nil && botsOnly(work.match)
	if !offPath {
		more, err := s.runBots(ctx, work, at)
		if err != nil {
			return err
		}
		events = append(events, more...)
	}
	a := Append{MatchID: e.match.ID(), Expected: e.match.Version(), Events: events, Summary: work.match.Summary(), Seats: seats}
	if err := s.store.Append(ctx, a); err != nil {
		if errors.Is(err, domain.ErrVersionConflict) {
			s.cache.drop(e)
		}
		return err
	}
	// Seats first: a read that finds the new match state then also finds the new seats, so a
	// token checked against them never sees a seat that changed hands (Authenticate).
	e.setRecord(withSeats(e.record, seats))
	e.set(work)
	s.watch.wake(e.match.ID())
	if offPath {
		s.pool.submit(e.match.ID())
	} else {
		s.handOn(e.match.ID(), work.match, time.Now())
	}
	return nil
}

// withSeats is rec with the given seat records replacing its own.
func withSeats(rec MatchRecord, seats []SeatRecord) MatchRecord {
	if len(seats) == 0 {
		return rec
	}
	out := rec
	out.Seats = append([]SeatRecord(nil), rec.Seats...)
	for _, sr := range seats {
		for i := range out.Seats {
			if out.Seats[i].Seat == sr.Seat {
				out.Seats[i] = sr
			}
		}
	}
	return out
}

// chooser is the strategy that plays timed-out turns and seats on autoplay, through the
// Strategy port, or nil when the service has none (AutoMove then takes the first legal move).
func (s *MatchService) chooser(ctx context.Context) domain.Chooser {
	st, ok := s.bots[domain.AutoplayBot]
	if !ok {
		return nil
	}
	return func(v domain.SeatView) (domain.Move, error) { return st.Choose(ctx, v) }
}
