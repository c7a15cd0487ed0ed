package postgres

import (
	"context"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Reads take no locks: each statement sees what was committed when it began, so a read never
// waits for an append and never sees half of one.

// Match returns the stored record, with the secret seed the service needs to deal later hands,
// and the read model (sqlrow.Match). It is the only query that returns the seed.
func (s *Store) Match(ctx context.Context, id string) (_ referee.StoredMatch, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "match %s", id)
	return sqlrow.Match(s.db.WithContext(ctx), id)
}

// Events returns the events with seq > after in order, at most limit of them (0: all).
func (s *Store) Events(ctx context.Context, id string, after, limit int) (_ []domain.Event, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "events of %s", id)
	db := s.db.WithContext(ctx)
	q := db.Select("match_id", "seq", "type", "data", "at").
		Where("match_id = ? AND seq > ?", id, max(after, 0)).Order("seq")
	if limit > 0 {
		q = q.Limit(limit)
	}
	var rows []sqlrow.EventRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		// No rows is either the end of the log or no match at all; only the latter is an error.
		var n int64
		if err := db.Model(&sqlrow.MatchRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("events of %q: %w", id, domain.ErrMatchNotFound)
		}
	}
	return sqlrow.DecodeEvents(rows)
}

// Idempotency returns the record seat stored for (id, key); ok is false when there is none,
// including when the match does not exist.
func (s *Store) Idempotency(ctx context.Context, id string, seat int, key string) (_ referee.IdempotencyRecord, _ bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "idempotency %s/%d/%s", id, seat, key)
	return sqlrow.Idempotency(s.db.WithContext(ctx), id, seat, key)
}
