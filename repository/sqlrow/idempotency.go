package sqlrow

import (
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// record is the row as the service's record, created being its parsed created_at.
func (r IdempotencyRow) record(created time.Time) referee.IdempotencyRecord {
	return referee.IdempotencyRecord{Key: r.Key, Seat: r.Seat, Fingerprint: r.Fingerprint,
		FirstSeq: r.FirstSeq, LastSeq: r.LastSeq, CreatedAt: created}
}

// Idempotency reads the record seat stored for (id, key) through db, bound to the caller's
// context: one primary-key lookup, which never finds another seat's record. ok is false when
// there is none, including when the match does not exist. A created_at that does not parse is
// ErrRecordCorrupt.
func Idempotency(db *gorm.DB, id string, seat int, key string) (_ referee.IdempotencyRecord, ok bool, _ error) {
	var rows []IdempotencyRow
	// A map condition lets each dialect quote "key", which SQLite reserves.
	if err := db.Where(map[string]any{"match_id": id, "seat": seat, "key": key}).Limit(1).Find(&rows).Error; err != nil {
		return referee.IdempotencyRecord{}, false, err
	}
	if len(rows) == 0 {
		return referee.IdempotencyRecord{}, false, nil
	}
	created, err := ParseTime(rows[0].CreatedAt)
	if err != nil {
		return referee.IdempotencyRecord{}, false, fmt.Errorf("%w: idempotency record: %v", storeerr.ErrRecordCorrupt, err)
	}
	return rows[0].record(created), true, nil
}

// IdempotencyRecords reads every idempotency record of match id through db, for the audit, in
// the order keyOrder gives (each store's ORDER BY for the keys' byte order, then the seat). A
// created_at that does not parse is left zero: the audit judges the seqs, seat and
// fingerprint, and a garbled row must be reported by it, not fail it.
func IdempotencyRecords(db *gorm.DB, id, keyOrder string) ([]referee.IdempotencyRecord, error) {
	var n int64
	if err := db.Model(&MatchRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("idempotency records of %q: %w", id, domain.ErrMatchNotFound)
	}
	var rows []IdempotencyRow
	if err := db.Where("match_id = ?", id).Order(keyOrder).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]referee.IdempotencyRecord, len(rows))
	for i, r := range rows {
		created, _ := ParseTime(r.CreatedAt)
		out[i] = r.record(created)
	}
	return out, nil
}
