package referee

import (
	"context"
	"crypto/subtle"
	"errors"
	"slices"

	"github.com/allfives/allfives/domain"
)

// errNoSeatOfKey refuses a player key on a match where its player holds no seat: a key stands
// for its player's own seats only (docs/api-players.md, "Players"). No seat token is involved, so the
// words are the key's.
var errNoSeatOfKey = domain.Detailf(domain.ErrUnauthorized, "the player of this key holds no seat of this match: a key stands only for its own player's seats")

// AuthenticateHeld is Authenticate for a credential known only by what a stream ticket keeps
// of it (docs/api-players.md, "Players"): tokenHash, the SHA-256 of a seat token, or, when player is
// not empty, the player whose key the caller has checked is still current, which stands for
// the seat that player holds here. It answers the seat the credential holds now, so a stream
// opened with a ticket ends when its seat changes hands, as one opened with the token does.
func (s *MatchService) AuthenticateHeld(ctx context.Context, id string, tokenHash []byte, player string) (domain.Viewer, error) {
	seats, checked, err := s.publishedSeats(ctx, id)
	if err != nil {
		return domain.Viewer{}, err
	}
	if player != "" {
		for _, sr := range seats {
			if sr.Kind == domain.Human && sr.Player == player {
				return domain.SeatViewer(sr.Seat).CheckedAt(checked), nil
			}
		}
		return domain.Viewer{}, errNoSeatOfKey
	}
	seat := hashSeat(seats, tokenHash)
	if seat < 0 && unclaimed(seats) {
		// A rematch's seat claimed since, maybe on another instance: the store has its hash.
		if seats, err = s.seatsOf(ctx, id); err != nil {
			return domain.Viewer{}, err
		}
		seat = hashSeat(seats, tokenHash)
	}
	if seat < 0 {
		return domain.Viewer{}, domain.ErrUnauthorized
	}
	return domain.SeatViewer(seat).CheckedAt(checked), nil
}

// hashSeat is the seat whose token hash is hash, or -1, compared in constant time.
func hashSeat(seats []SeatRecord, hash []byte) int {
	seat := -1
	for _, sr := range seats {
		if len(hash) > 0 && len(sr.TokenHash) == len(hash) && subtle.ConstantTimeCompare(sr.TokenHash, hash) == 1 {
			seat = sr.Seat
		}
	}
	return seat
}

// publishedSeats is the seats Authenticate reads: the cache's published ones with the version
// they were checked at, or the store's for a match whose log does not fold.
func (s *MatchService) publishedSeats(ctx context.Context, id string) ([]SeatRecord, int, error) {
	e, err := s.load(ctx, id)
	var ce *CorruptError
	switch {
	case errors.As(err, &ce):
		seats, err := s.seatsOf(ctx, id)
		return seats, 0, err
	case err != nil:
		return nil, 0, err
	}
	defer s.cache.unpin(e)
	return *e.seats.Load(), int(e.ver.Load()), nil
}

// ForgetSeatsOf drops the cached copy of every match with a seat bound to player, and wakes
// their streams: the player's key was rotated, and the store has revoked its seats' tokens
// (players.Store.RotatePlayerKey), which the copies' seats still hold. Each copy is dropped
// under its lock, after the command holding it, if any, is done, so none is still installing
// the old seats when ForgetSeatsOf returns; the next request reads the match afresh, and a
// stream opened with one of those tokens ends at its next look. Other instances drop theirs
// when they hear of the rotation (Appended with version 0).
func (s *MatchService) ForgetSeatsOf(player string) {
	if player == "" {
		return
	}
	var held []*entry
	s.cache.mu.Lock()
	for _, e := range s.cache.byID {
		if slices.ContainsFunc(*e.seats.Load(), func(sr SeatRecord) bool { return sr.Player == player }) {
			e.pins++
			held = append(held, e)
		}
	}
	s.cache.mu.Unlock()
	for _, e := range held {
		e.mu.Lock()
		id := e.match.ID()
		s.cache.drop(e)
		s.release(e)
		s.watch.wake(id)
	}
}
