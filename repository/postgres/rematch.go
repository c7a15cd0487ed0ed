package postgres

import (
	"context"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ referee.RematchStore = (*Store)(nil)

// LinkRematch sets the rematch of finished match id (sqlrow.LinkRematch).
func (s *Store) LinkRematch(ctx context.Context, id, next string) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "link the rematch of %s", id)
	return sqlrow.LinkRematch(s.db.WithContext(ctx), id, next)
}

// ClaimSeat stores the token hash of an unclaimed seat of a rematch (sqlrow.ClaimSeat).
func (s *Store) ClaimSeat(ctx context.Context, id string, seat int, hash []byte) (_ bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "claim seat %d of %s", seat, id)
	return sqlrow.ClaimSeat(s.db.WithContext(ctx), id, seat, hash)
}
