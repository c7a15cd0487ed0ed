package postgres

import (
	"context"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ players.NameStore = (*Store)(nil)

// PlayerByNameKey returns the player whose name key is key, by the unique index
// players_name_key, or players.ErrPlayerNotFound.
func (s *Store) PlayerByNameKey(ctx context.Context, key string) (_ players.Record, err error) {
	defer classify(&err)
	return sqlrow.PlayerWhere(s.db.WithContext(ctx), "name_key", key)
}
