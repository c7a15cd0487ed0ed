package memstore

import (
	"bytes"
	"context"
	"slices"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository"
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
// players.ErrNameTaken.
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
		return players.ErrNameTaken
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

// Player returns the player with that id, or players.ErrPlayerNotFound.
func (s *Store) Player(ctx context.Context, id string) (players.Record, error) {
	if err := ctx.Err(); err != nil {
		return players.Record{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec, ok := s.people.byID[id]
	if !ok {
		return players.Record{}, players.ErrPlayerNotFound
	}
	return copyPlayer(rec), nil
}

// PlayerByKeyHash returns the player whose key hashes to hash, or players.ErrPlayerNotFound.
func (s *Store) PlayerByKeyHash(ctx context.Context, hash []byte) (players.Record, error) {
	if err := ctx.Err(); err != nil {
		return players.Record{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.people.byKey[string(hash)]
	if !ok {
		return players.Record{}, players.ErrPlayerNotFound
	}
	return copyPlayer(s.people.byID[id]), nil
}

// RotatePlayerKey replaces the key hash of player id with next if it is still prev, and revokes
// the tokens of the player's seats.
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
	// The tokens of the player's seats go with the key, as in the SQL stores.
	for _, m := range s.matches {
		for i, sr := range m.rec.Seats {
			if sr.Player == id && sr.Kind == domain.Human && len(sr.TokenHash) > 0 {
				m.rec.Seats[i].TokenHash = repository.RevokedToken()
			}
		}
	}
	return true, nil
}

// copyPlayer is rec with a key hash of its own, in UTC, as the SQL stores give it back.
func copyPlayer(rec players.Record) players.Record {
	rec.KeyHash = slices.Clone(rec.KeyHash)
	rec.CreatedAt, rec.KeyRotatedAt = rec.CreatedAt.UTC(), rec.KeyRotatedAt.UTC()
	return rec
}

// challenges counts the challenges waiting for an answer that player sent (sent) or was sent,
// as the SQL stores count them (repository/sqlrow/challenges.go); the caller holds mu.
func (s *Store) challenges(player string, sent bool) (int, error) {
	n := 0
	for _, m := range s.matches {
		if m.sum.Status != domain.StatusWaiting || m.rec.RematchOf != "" {
			continue
		}
		want := domain.Open
		if sent {
			want = domain.Human
		}
		reserved, mine := false, false
		for _, sr := range m.rec.Seats {
			reserved = reserved || (sr.Kind == domain.Open && sr.Player != "")
			mine = mine || (sr.Player == player && sr.Kind == want)
		}
		if mine && reserved {
			n++
		}
	}
	return n, nil
}
