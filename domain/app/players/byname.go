package players

import (
	"context"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain/names"
)

// NameStore is what a Store also implements to find a player by name: every store in
// repository/ does, by the unique index on the name key (storetest.RunPlayerLookup).
type NameStore interface {
	// PlayerByNameKey returns the player whose NameKey is key, or ErrPlayerNotFound.
	PlayerByNameKey(ctx context.Context, key string) (Record, error)
}

// errNoNameLookup is a store that cannot find a player by name.
var errNoNameLookup = errors.New("the store does not find players by name")

// ByName returns the player who goes by name under the comparison that keeps names unique
// ("Ada", "ada" and "ＡＤＡ" find the same player), or ErrPlayerNotFound: also for a
// name no player could have.
func (s *Service) ByName(ctx context.Context, name string) (Player, error) {
	st, ok := s.store.(NameStore)
	if !ok {
		return Player{}, errNoNameLookup
	}
	notFound := fmt.Errorf("no player goes by that name: %w", ErrPlayerNotFound)
	kept, err := names.Enforce(name)
	if err != nil {
		return Player{}, notFound
	}
	key, err := names.Key(kept)
	if err != nil {
		return Player{}, notFound
	}
	rec, err := st.PlayerByNameKey(ctx, key)
	switch {
	case errors.Is(err, ErrPlayerNotFound):
		return Player{}, notFound
	case err != nil:
		return Player{}, err
	}
	return rec.Player, nil
}
