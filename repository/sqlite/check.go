package sqlite

import (
	"context"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository/sqlrow"
)

// IntegrityCheck runs SQLite's PRAGMA integrity_check and returns what it reports: ["ok"] for a
// sound file, else one line per problem found.
func (s *Store) IntegrityCheck(ctx context.Context) (_ []string, err error) {
	defer domain.Wrap(&err, "integrity check")
	var lines []string
	if err := s.r.WithContext(ctx).Raw("PRAGMA integrity_check").Scan(&lines).Error; err != nil {
		return nil, err
	}
	return lines, nil
}

// MatchIDs lists the id of every stored match, oldest first. Unlike History it decodes nothing
// else of a row, so a match whose read model is garbled is listed too, for `allfives check`.
func (s *Store) MatchIDs(ctx context.Context) (_ []string, err error) {
	defer domain.Wrap(&err, "match ids")
	var ids []string
	if err := s.r.WithContext(ctx).Model(&sqlrow.MatchRow{}).Order("rowid").Pluck("id", &ids).Error; err != nil {
		return nil, err
	}
	return ids, nil
}
