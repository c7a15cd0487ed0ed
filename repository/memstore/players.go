package memstore

import (
	"bytes"
	"context"
	"slices"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/players"
)

var _ players.Store = (*Store)(nil)

// playerBook is the players, by id, with the unique name keys and key hashes the SQL stores
// keep under unique indexes. Its maps are made on the first create.
type playerBook struct {
	byID   map[string]players.Record
	byName map[string]string // name key -> id
	byLook map[string]string // name skeleton -> id
	byKey  map[string]string // key hash (as a string) -> id
}

// CreatePlayer stores a new player; a name key or name skeleton already stored is
// domain.ErrNameTaken.
func (s *Store) CreatePlayer(ctx context.Context, rec players.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rec.ID == "" || rec.NameKey == "" || rec.NameSkeleton == "" || len(rec.KeyHash) == 0 {
		return domain.Invalidf("a player needs an id, a name key, a name skeleton and a key hash")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := &s.people
	if b.byID == nil {
		b.byID, b.byName, b.byLook, b.byKey = map[string]players.Record{}, map[string]string{}, map[string]string{}, map[string]string{}
	}
	_, taken := b.byName[rec.NameKey]
	_, alike := b.byLook[rec.NameSkeleton]
	if taken || alike {
		return domain.ErrNameTaken
	}
	if _, taken := b.byID[rec.ID]; taken {
		return domain.Invalidf("player %s is already stored", rec.ID)
	}
	if _, taken := b.byKey[string(rec.KeyHash)]; taken {
		return domain.Invalidf("that key hash is already stored")
	}
	rec = copyPlayer(rec)
	b.byID[rec.ID], b.byName[rec.NameKey], b.byLook[rec.NameSkeleton], b.byKey[string(rec.KeyHash)] = rec, rec.ID, rec.ID, rec.ID
	return nil
}

// Player returns the player with that id, or domain.ErrPlayerNotFound.
func (s *Store) Player(ctx context.Context, id string) (players.Record, error) {
	if err := ctx.Err(); err != nil {
		return players.Record{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, ok := s.people.byID[id]
	if !ok {
		return players.Record{}, domain.ErrPlayerNotFound
	}
	return copyPlayer(rec), nil
}

// PlayerByKeyHash returns the player whose key hashes to hash, or domain.ErrPlayerNotFound.
func (s *Store) PlayerByKeyHash(ctx context.Context, hash []byte) (players.Record, error) {
	if err := ctx.Err(); err != nil {
		return players.Record{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.people.byKey[string(hash)]
	if !ok {
		return players.Record{}, domain.ErrPlayerNotFound
	}
	return copyPlayer(s.people.byID[id]), nil
}

// RotatePlayerKey replaces the key hash of player id with next if it is still prev.
func (s *Store) RotatePlayerKey(ctx context.Context, id string, prev, next []byte, at time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := &s.people
	rec, ok := b.byID[id]
	if !ok || !bytes.Equal(rec.KeyHash, prev) {
		return false, nil
	}
	if _, taken := b.byKey[string(next)]; taken {
		return false, domain.Invalidf("that key hash is already stored")
	}
	delete(b.byKey, string(prev))
	rec.KeyHash, rec.KeyRotatedAt = slices.Clone(next), at.UTC()
	b.byID[id], b.byKey[string(next)] = rec, id
	return true, nil
}

// copyPlayer is rec with a key hash of its own, in UTC, as the SQL stores give it back.
func copyPlayer(rec players.Record) players.Record {
	rec.KeyHash = slices.Clone(rec.KeyHash)
	rec.CreatedAt, rec.KeyRotatedAt = rec.CreatedAt.UTC(), rec.KeyRotatedAt.UTC()
	return rec
}
