package memstore

import (
	"context"

	"github.com/allfives/allfives/domain/app/players"
)

var _ players.NameStore = (*Store)(nil)

// PlayerByNameKey returns the player whose name key is key, or players.ErrPlayerNotFound.
func (s *Store) PlayerByNameKey(ctx context.Context, key string) (players.Record, error) {
	if err := ctx.Err(); err != nil {
		return players.Record{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.people.byName[key]
	if !ok {
		return players.Record{}, players.ErrPlayerNotFound
	}
	return copyPlayer(s.people.byID[id]), nil
}
