package sqlite

import (
	"context"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ referee.RematchStore = (*Store)(nil)

// LinkRematch sets the rematch of finished match id; like a create it runs on the writer.
func (s *Store) LinkRematch(ctx context.Context, id, next string) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "link the rematch of %s", id)
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.LinkRematch(s.w.WithContext(ctx), id, next)
}

// ClaimSeat stores the token hash of an unclaimed seat of a rematch, on the writer.
func (s *Store) ClaimSeat(ctx context.Context, id string, seat int, hash []byte) (_ bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "claim seat %d of %s", seat, id)
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.ClaimSeat(s.w.WithContext(ctx), id, seat, hash)
}
