package players

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/names"
)

// Config wires a Service.
type Config struct {
	Store Store
	// Random is the source of ids and keys; nil means crypto/rand.Reader.
	Random io.Reader
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service creates, authenticates and rotates players. It keeps nothing in memory: every
// answer is the store's, so a key rotated on one instance is refused at once by every other
// instance on the same database.
type Service struct {
	store Store
	rand  io.Reader
	now   func() time.Time
}

// NewService returns the service over cfg.Store.
func NewService(cfg Config) *Service {
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{store: cfg.Store, rand: cfg.Random, now: cfg.Now}
}

// idBytes is the randomness of a player id, like a match id's: 128 bits, as hex.
const idBytes = 16

// Create makes a player named name and returns it with its key, which is shown only here.
// The name follows the rule of domain/names for a new name (names.Admit) and is kept in its
// enforced form; a name another player has under the profile's comparison, or one that looks
// like it (the same names.Skeleton), is ErrNameTaken, and so is a name kept for the
// bots (names.Reserved).
func (s *Service) Create(ctx context.Context, name string) (Created, error) {
	return s.CreateAs(ctx, name, false)
}

// CreateAs is Create with what the player is: program says it is a program, an engine played
// through `allfives connect` or any client of its own (docs/engine.md), which its profile,
// seats, ratings and the leaderboards then show.
func (s *Service) CreateAs(ctx context.Context, name string, program bool) (Created, error) {
	kept, err := names.Admit(name)
	if err != nil {
		return Created{}, domain.Invalidf("name %s", err)
	}
	if names.Reserved(kept) {
		return Created{}, fmt.Errorf("name %q: names that begin with %q, or look as if they did, are the bots': %w", kept, names.BotPrefix, ErrNameTaken)
	}
	nameKey, err := names.Key(kept)
	if err != nil {
		return Created{}, domain.Invalidf("name %s", err)
	}
	skeleton, err := names.Skeleton(kept)
	if err != nil {
		return Created{}, domain.Invalidf("name %s", err)
	}
	id, err := s.random(idBytes)
	if err != nil {
		return Created{}, err
	}
	key, err := s.newKey()
	if err != nil {
		return Created{}, err
	}
	now := s.now().UTC()
	p := Player{ID: hex.EncodeToString(id), Name: kept, CreatedAt: now, Program: program}
	rec := Record{Player: p, NameKey: nameKey, NameSkeleton: skeleton, KeyHash: hashKey(key), KeyRotatedAt: now}
	if err := s.store.CreatePlayer(ctx, rec); err != nil {
		if errors.Is(err, ErrNameTaken) {
			return Created{}, fmt.Errorf("name %q: %w", kept, ErrNameTaken)
		}
		return Created{}, err
	}
	return Created{Player: p, Key: key}, nil
}

// Authenticate returns the player whose current key is key. No key is ErrNoKey; a key of the
// wrong shape, never issued or rotated away is domain.ErrUnauthorized, the same refusal for
// each. A malformed key costs no lookup.
func (s *Service) Authenticate(ctx context.Context, key string) (Player, error) {
	rec, err := s.authenticate(ctx, key)
	return rec.Player, err
}

// KeyLookup finds the player whose current key hashes to hash, or ErrPlayerNotFound,
// as Store.PlayerByKeyHash does.
type KeyLookup func(ctx context.Context, hash []byte) (Record, error)

// AuthenticateBy is Authenticate with the player found by find instead of the store's
// PlayerByKeyHash: a caller whose store answers a key's lookup in the same read as something
// else it needs (the referee's head check on PostgreSQL) passes that read. find must ask the
// store afresh, as PlayerByKeyHash does: the refusals, and the check of the hash found, are
// Authenticate's. The player returned has the fields find's record has, which may be its ID
// alone. A malformed key costs no call of find.
func (s *Service) AuthenticateBy(ctx context.Context, key string, find KeyLookup) (Player, error) {
	rec, err := s.authenticateBy(ctx, key, find)
	return rec.Player, err
}

func (s *Service) authenticate(ctx context.Context, key string) (Record, error) {
	return s.authenticateBy(ctx, key, nil)
}

// authenticateBy is the check of a key, its player found by find; nil: the store's
// PlayerByKeyHash.
func (s *Service) authenticateBy(ctx context.Context, key string, find KeyLookup) (Record, error) {
	if key == "" {
		return Record{}, errNoKey
	}
	if !IsKey(key) {
		return Record{}, errBadKey
	}
	hash := hashKey(key)
	var rec Record
	var err error
	if find != nil {
		rec, err = find(ctx, hash)
	} else {
		rec, err = s.store.PlayerByKeyHash(ctx, hash)
	}
	switch {
	case errors.Is(err, ErrPlayerNotFound):
		return Record{}, errBadKey
	case err != nil:
		return Record{}, err
	case !sameHash(rec.KeyHash, hash):
		return Record{}, errBadKey
	}
	return rec, nil
}

// RotateKey replaces the player's key with a new one, shown only here, and returns the
// player with it. The old key is refused from the moment the store has the new hash, on every
// instance. Of two rotations with one key, one wins and the other is refused as the old key is.
func (s *Service) RotateKey(ctx context.Context, key string) (Created, error) {
	rec, err := s.authenticate(ctx, key)
	if err != nil {
		return Created{}, err
	}
	next, err := s.newKey()
	if err != nil {
		return Created{}, err
	}
	ok, err := s.store.RotatePlayerKey(ctx, rec.ID, rec.KeyHash, hashKey(next), s.now().UTC())
	switch {
	case err != nil:
		return Created{}, err
	case !ok:
		return Created{}, errBadKey
	}
	return Created{Player: rec.Player, Key: next}, nil
}

// Profile returns the public profile of player id, or ErrPlayerNotFound.
func (s *Service) Profile(ctx context.Context, id string) (Profile, error) {
	rec, err := s.store.Player(ctx, id)
	if err != nil {
		if errors.Is(err, ErrPlayerNotFound) {
			return Profile{}, fmt.Errorf("player %q: %w", id, ErrPlayerNotFound)
		}
		return Profile{}, err
	}
	return Profile{Player: rec.Player}, nil
}

// random is n bytes of the service's randomness.
func (s *Service) random(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return nil, fmt.Errorf("random: %w", err)
	}
	return b, nil
}
