// Package players is the application layer of the players who last beyond one match
// (docs/api-players.md, "Players"): creating one under a name no other player goes by, its key (shown
// once, kept only as a hash), authenticating a key, rotating it, and the public profile.
//
// Anonymous seats are not players and are untouched by this package: a seat's token still
// belongs to one seat of one match. Binding seats to players is the referee's business; it
// will ask this package who a key belongs to.
//
// Like domain, it speaks no HTTP or SQL: the store is the port Store, which the stores in
// repository/{sqlite,postgres,memstore} implement and repository/storetest checks.
package players

import (
	"context"
	"time"
)

// Player is a lasting player as anyone may see it: its id is public, its key never is.
type Player struct {
	ID        string
	Name      string // the enforced form (domain/names), as kept and shown
	CreatedAt time.Time
	// Program says the player is a program rather than a person (set at creation, never changed).
	Program bool
}

// Record is a player as the store keeps it: the player, the comparison key of its name and
// the SHA-256 of its current key. It never leaves this package's callers' process: views are
// made from Player alone.
type Record struct {
	Player
	// NameKey is names.Key(Name); the store keeps it unique, which is what makes names unique
	// under the profile's comparison ("Ada", "ada" and "ＡＤＡ" share one).
	NameKey string
	// NameSkeleton is names.Skeleton(Name); the store keeps it unique too, which is what makes
	// look-alike names one ("Bob", "Вob" with a Cyrillic В). CreatePlayer needs it; reads do
	// not return it (only a create compares it).
	NameSkeleton string
	// KeyHash is the SHA-256 of the player's current key; the store keeps it unique and finds
	// a player by it.
	KeyHash []byte
	// KeyRotatedAt is when the current key was issued: CreatedAt until the first rotation.
	KeyRotatedAt time.Time
}

// Store is the port for durable players. Implementations: memstore, repository/sqlite and
// repository/postgres; all pass storetest.RunPlayers.
type Store interface {
	// CreatePlayer stores a new player. A name key or name skeleton another player has is
	// ErrNameTaken, and nothing is stored.
	CreatePlayer(ctx context.Context, rec Record) error
	// Player returns the player with that id, or ErrPlayerNotFound.
	Player(ctx context.Context, id string) (Record, error)
	// PlayerByKeyHash returns the player whose current key hashes to hash (an indexed
	// equality on the stored hash), or ErrPlayerNotFound.
	PlayerByKeyHash(ctx context.Context, hash []byte) (Record, error)
	// RotatePlayerKey replaces the key hash of player id with next, and its KeyRotatedAt with
	// at, only if the stored hash is still prev: of two rotations with one key exactly one
	// wins. It reports whether it replaced it; an unknown id is false, not an error. A store
	// that also keeps matches revokes, in the same transaction, the token of every seat bound
	// to the player, in every match (repository.RevokedToken): the key may have leaked with
	// the tokens the same client held, and the player plays its seats with the new key.
	RotatePlayerKey(ctx context.Context, id string, prev, next []byte, at time.Time) (bool, error)
}

// Created is a new player and its key, which is shown this once.
type Created struct {
	Player Player
	Key    string
}

// Profile is a player's public profile: what anyone may read by the player's id. The matches
// it played and won per format, and its ratings, join it once seats are bound to players.
type Profile struct {
	Player
}
