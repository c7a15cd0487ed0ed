package referee

import (
	"context"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
)

// The commands of consent and resignation (docs/api-matches.md, "Consent"): the one a seat is reserved
// for declines it, a seat holder withdraws a match that has not started, a seat holder resigns
// one in progress. Each is one event the audit re-derives.

// Cancel withdraws a waiting match at the word of the viewer's seat (a challenger, a rematch's
// proposer, anyone seated): it ends cancelled (withdrawn) and is never played.
func (s *MatchService) Cancel(ctx context.Context, id string, v domain.Viewer) (domain.MatchView, error) {
	seat, ok := v.Seat()
	if !ok {
		return domain.MatchView{}, fmt.Errorf("%w: a match is withdrawn by one of its seats", domain.ErrUnauthorized)
	}
	return s.seatCommand(ctx, id, v, seat, func(m *domain.Match, _ *SeatRecord) ([]domain.Event, error) {
		return m.DecideCancel(seat, s.clock.Now())
	})
}

// Resign gives the viewer's side of a match in progress up: with two sides the match ends at
// once and the other side wins; with more, the seat is played by its bot to the end and its
// side ranks last.
func (s *MatchService) Resign(ctx context.Context, id string, v domain.Viewer) (domain.MatchView, error) {
	seat, ok := v.Seat()
	if !ok {
		return domain.MatchView{}, fmt.Errorf("%w: a match is resigned by one of its seats", domain.ErrUnauthorized)
	}
	return s.seatCommand(ctx, id, v, seat, func(m *domain.Match, _ *SeatRecord) ([]domain.Event, error) {
		return m.DecideResign(seat, s.clock.Now())
	})
}

// Decline cancels waiting match id at the word of the one seat is reserved for: the player's
// key, or, for a rematch's seat, the token (or key) that held the seat in the match before.
// The match ends cancelled (declined); the answer is the match as anyone sees it.
func (s *MatchService) Decline(ctx context.Context, id string, seat int, credential string) (domain.MatchView, error) {
	// A sealed match reserves no seat; whether it started is not said.
	if err := s.refuseSealed(ctx, id); err != nil {
		return domain.MatchView{}, err
	}
	if credential == "" {
		return domain.MatchView{}, fmt.Errorf("%w: send Authorization: Bearer <player key>, or the seat's token in the match a rematch follows", domain.ErrUnauthorized)
	}
	res, err := s.reservation(ctx, id, seat)
	if err != nil {
		return domain.MatchView{}, err
	}
	if err := s.reservedTo(ctx, res, seat, credential); err != nil {
		return domain.MatchView{}, err
	}
	view, err := s.decline(ctx, id, seat)
	if errors.Is(err, domain.ErrVersionConflict) {
		view, err = s.decline(ctx, id, seat) // another instance moved the match: decide again
	}
	return view, err
}

// reserved is whom a seat of a waiting match is kept for, and the match a rematch follows.
type reserved struct {
	domain.Reservation
	rematchOf string
}

// reservation reads whom seat of match id is kept for: ErrSeatNotReserved when nobody.
func (s *MatchService) reservation(ctx context.Context, id string, seat int) (reserved, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return reserved{}, err
	}
	defer s.release(e)
	if err := checkDeclinable(e.match, seat); err != nil {
		return reserved{}, err
	}
	return reserved{Reservation: e.match.Player(seat).ReservedFor, rematchOf: e.record.RematchOf}, nil
}

// checkDeclinable refuses, before any credential is looked at, a decline the rules refuse.
func checkDeclinable(m *domain.Match, seat int) error {
	_, err := m.DecideDecline(seat, m.UpdatedAt())
	return err
}

// reservedTo checks that credential speaks for the one res keeps seat for: the reserved
// player's key, or a credential of the same seat in the match the rematch follows.
func (s *MatchService) reservedTo(ctx context.Context, res reserved, seat int, credential string) error {
	refused := fmt.Errorf("%w: seat %d is reserved for someone else: its player's key declines it, or, for a rematch, the seat's credential in the match before", domain.ErrUnauthorized, seat)
	if players.IsKey(credential) && res.ID != "" {
		who, err := s.keyHolder(ctx, credential)
		if err != nil {
			return err
		}
		if who.ID == res.ID {
			return nil
		}
	}
	if res.rematchOf == "" {
		return refused
	}
	v, err := s.Authenticate(ctx, res.rematchOf, credential)
	if err != nil {
		return err
	}
	if before, ok := v.Seat(); !ok || before != seat {
		return refused
	}
	return nil
}

func (s *MatchService) decline(ctx context.Context, id string, seat int) (domain.MatchView, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return domain.MatchView{}, err
	}
	defer s.release(e)
	work := e.working()
	events, err := work.match.DecideDecline(seat, s.clock.Now())
	if err != nil {
		return domain.MatchView{}, err
	}
	if err := s.commit(ctx, e, work, events); err != nil {
		return domain.MatchView{}, err
	}
	return work.match.View(domain.Spectator()), nil
}
