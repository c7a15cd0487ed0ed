package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Reads go through the read pool: in WAL mode they see the last committed state and neither
// wait for nor block the writer.

// Match returns the stored record, with the secret seed the service needs to deal later hands,
// and the read model (sqlrow.Match). It is the only query that returns the seed.
func (s *Store) Match(ctx context.Context, id string) (_ referee.StoredMatch, err error) {
	defer s.read(&err)
	defer domain.Wrap(&err, "match %s", id)
	return sqlrow.Match(s.r.WithContext(ctx), id)
}

// Events returns the events with seq > after in order, at most limit of them (0: all). It
// scans with database/sql rather than GORM, into reused buffers: a cache miss folds the whole
// log, and the per-row reflection and copies were a good part of its cost.
func (s *Store) Events(ctx context.Context, id string, after, limit int) (_ []domain.Event, err error) {
	defer s.read(&err)
	defer domain.Wrap(&err, "events of %s", id)
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := s.rdb.QueryContext(ctx, "SELECT seq, type, data, at FROM events WHERE match_id = ? AND seq > ? ORDER BY seq LIMIT ?", id, max(after, 0), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Event
	var (
		seq      int
		typ      string
		data, at sql.RawBytes
	)
	for rows.Next() {
		if err := rows.Scan(&seq, &typ, &data, &at); err != nil {
			return nil, err
		}
		e, err := sqlrow.EventOf(seq, domain.EventType(typ), data, at)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		// No rows is either the end of the log or no match at all; only the latter is an error.
		var n int64
		if err := s.r.WithContext(ctx).Model(&sqlrow.MatchRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("events of %q: %w", id, domain.ErrMatchNotFound)
		}
	}
	return out, nil
}

// Idempotency returns the record seat stored for (id, key); ok is false when there is none,
// including when the match does not exist.
func (s *Store) Idempotency(ctx context.Context, id string, seat int, key string) (_ referee.IdempotencyRecord, _ bool, err error) {
	defer s.read(&err)
	defer domain.Wrap(&err, "idempotency %s/%d/%s", id, seat, key)
	return sqlrow.Idempotency(s.r.WithContext(ctx), id, seat, key)
}
