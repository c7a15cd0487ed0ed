package postgres

import (
	"context"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository/sqlrow"
)

// MatchIDs lists the id of every stored match, oldest first. Unlike History it decodes nothing
// else of a row, so a match whose read model is garbled is listed too, for `allfives check`.
func (s *Store) MatchIDs(ctx context.Context) (_ []string, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "match ids")
	var ids []string
	if err := s.db.WithContext(ctx).Model(&sqlrow.MatchRow{}).Order("created_at, id").Pluck("id", &ids).Error; err != nil {
		return nil, err
	}
	return ids, nil
}
