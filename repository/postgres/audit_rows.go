package postgres

import (
	"context"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/referee"
)

// IdempotencyRecords returns every idempotency record of match id in key order (byte order), for the audit.
// A created_at that does not parse is left zero: the audit judges the seqs, seat and
// fingerprint, and a garbled row must be reported by it, not fail it.
func (s *Store) IdempotencyRecords(ctx context.Context, id string) (_ []referee.IdempotencyRecord, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "idempotency records of %s", id)
	db := s.db.WithContext(ctx)
	var n int64
	if err := db.Model(&matchRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("idempotency records of %q: %w", id, domain.ErrMatchNotFound)
	}
	var rows []idempotencyRow
	if err := db.Where("match_id = ?", id).Order(`key COLLATE "C"`).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]referee.IdempotencyRecord, len(rows))
	for i, r := range rows {
		created, _ := parseTime(r.CreatedAt)
		out[i] = referee.IdempotencyRecord{Key: r.Key, Seat: r.Seat, Fingerprint: r.Fingerprint, FirstSeq: r.FirstSeq, LastSeq: r.LastSeq, CreatedAt: created}
	}
	return out, nil
}
