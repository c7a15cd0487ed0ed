package referee

import (
	"context"

	"github.com/allfives/allfives/domain/app/players"
)

// HeadKeyReader is a HeadReader that can also find a player key's holder in the same read as
// a head check (PostgreSQL), so that a read made with a key costs one round trip, as one made
// with a seat token does (docs/design.md, "Several instances").
type HeadKeyReader interface {
	HeadReader
	// HeadAndKey returns, from one read of the store that starts after it is called, match
	// id's stored version as Head does (-1: no such match) and the player whose current key
	// hashes to keyHash, as players.Store.PlayerByKeyHash finds it, though with no more than
	// its ID and KeyHash, which are all a seat's check needs (a zero Record: none). An error
	// is the read's own failure.
	HeadAndKey(ctx context.Context, id string, keyHash []byte) (int, players.Record, error)
}

// keysBy is the PlayerKeys that can check a key against a lookup it is given
// (players.Service): the referee gives it the lookup folded into the head check.
type keysBy interface {
	AuthenticateBy(ctx context.Context, key string, find players.KeyLookup) (players.Player, error)
}

// heldKey is a player key authenticated by Authenticate before it reads the seats: its
// player, or the refusal. The zero value is a key not yet authenticated.
type heldKey struct {
	done bool
	who  players.Player
	err  error
}

// foldKey authenticates token, when it is a player key and the store can answer a key in its
// head check, with one read that is also match id's head check, and notes the head in the
// request's memo (a memo of this call when ctx carries none), so that the load that follows
// asks the store nothing more. The read starts after the call, so a key rotated before
// Authenticate began, on any instance, is refused, and the seats read next are at least as
// new as the head it found. Any other token is left for Authenticate to check as before.
func (s *MatchService) foldKey(ctx context.Context, id, token string) (context.Context, heldKey) {
	hk, ok := s.store.(HeadKeyReader)
	if !ok || token == "" || id == "" || len(id) > 64 {
		return ctx, heldKey{}
	}
	by, ok := s.keys.(keysBy)
	if !ok || !players.IsKey(token) {
		return ctx, heldKey{}
	}
	memo := memoOf(ctx)
	if memo == nil {
		ctx = OneHeadCheck(ctx)
		memo = memoOf(ctx)
	}
	who, err := by.AuthenticateBy(ctx, token, func(ctx context.Context, hash []byte) (players.Record, error) {
		head, rec, err := hk.HeadAndKey(ctx, id, hash)
		if err != nil {
			return players.Record{}, err
		}
		if head >= 0 {
			memo.note(id, head)
		}
		if rec.ID == "" {
			return players.Record{}, players.ErrPlayerNotFound
		}
		return rec, nil
	})
	return ctx, heldKey{done: true, who: who, err: err}
}

// heldSeat is the seat the player of key holds in seats (-1: none, but one is reserved for
// it): k's player when foldKey authenticated the key, else keySeat's own lookup.
func (s *MatchService) heldSeat(ctx context.Context, k heldKey, key string, seats []SeatRecord) (int, error) {
	if !k.done {
		return s.keySeat(ctx, key, seats)
	}
	if k.err != nil {
		return -1, k.err
	}
	return playerSeat(seats, k.who.ID)
}
