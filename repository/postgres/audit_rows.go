package postgres

import (
	"context"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

// IdempotencyRecords returns every idempotency record of match id in key order (byte order),
// then seat order, for the audit (sqlrow.IdempotencyRecords says what it forgives).
func (s *Store) IdempotencyRecords(ctx context.Context, id string) (_ []referee.IdempotencyRecord, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "idempotency records of %s", id)
	return sqlrow.IdempotencyRecords(s.db.WithContext(ctx), id, `key COLLATE "C", seat`)
}
