package sqlrow

import (
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// ReviewRow is a row of reviews (migrations/*/00004_reviews.sql): one match's review by one
// method. Result is the answer's JSON as served, NULL unless done.
type ReviewRow struct {
	MatchID     string  `gorm:"column:match_id;primaryKey"`
	Method      string  `gorm:"column:method;primaryKey"`
	Status      string  `gorm:"column:status"`
	Result      *string `gorm:"column:result"`
	ErrorCode   string  `gorm:"column:error_code"`
	RequestedAt string  `gorm:"column:requested_at"`
	FinishedAt  *string `gorm:"column:finished_at"`
}

// TableName tells GORM the table, which migrations/ names.
func (ReviewRow) TableName() string { return "reviews" }

// record decodes a reviews row; a time that does not parse is ErrRecordCorrupt.
func (r ReviewRow) record() (reviews.Record, error) {
	rec := reviews.Record{MatchID: r.MatchID, Method: r.Method, Status: reviews.Status(r.Status), Code: domain.Code(r.ErrorCode)}
	if r.Result != nil {
		rec.Result = []byte(*r.Result)
	}
	var err error
	if rec.RequestedAt, err = ParseTime(r.RequestedAt); err != nil {
		return reviews.Record{}, fmt.Errorf("%w: review of %s: %v", storeerr.ErrRecordCorrupt, r.MatchID, err)
	}
	if r.FinishedAt != nil {
		if rec.FinishedAt, err = ParseTime(*r.FinishedAt); err != nil {
			return reviews.Record{}, fmt.Errorf("%w: review of %s: %v", storeerr.ErrRecordCorrupt, r.MatchID, err)
		}
	}
	return rec, nil
}

// Review reads the review of (id, method) through db; ok is false when there is none.
func Review(db *gorm.DB, id, method string) (_ reviews.Record, ok bool, _ error) {
	var rows []ReviewRow
	if err := db.Where("match_id = ? AND method = ?", id, method).Limit(1).Find(&rows).Error; err != nil {
		return reviews.Record{}, false, err
	}
	if len(rows) == 0 {
		return reviews.Record{}, false, nil
	}
	rec, err := rows[0].record()
	return rec, err == nil, err
}

// ReviewStatus reads the status alone of the review of (id, method) through db, by the
// table's primary key; ok is false when there is none. A status the schema does not allow is
// ErrRecordCorrupt.
func ReviewStatus(db *gorm.DB, id, method string) (_ reviews.Status, ok bool, _ error) {
	var st []string
	if err := db.Model(&ReviewRow{}).Where("match_id = ? AND method = ?", id, method).Limit(1).Pluck("status", &st).Error; err != nil {
		return "", false, err
	}
	if len(st) == 0 {
		return "", false, nil
	}
	switch s := reviews.Status(st[0]); s {
	case reviews.StatusRunning, reviews.StatusDone, reviews.StatusFailed:
		return s, true, nil
	}
	return "", false, fmt.Errorf("%w: review of %s: status %q", storeerr.ErrRecordCorrupt, id, st[0])
}

// The upserts both dialects share: SQLite (3.24 and later) and PostgreSQL spell ON CONFLICT
// ... DO UPDATE ... WHERE alike, and the WHERE keeps a done review as it is.
const (
	startReview = `INSERT INTO reviews (match_id, method, status, result, error_code, requested_at, finished_at)
VALUES (?, ?, 'running', NULL, '', ?, NULL)
ON CONFLICT (match_id, method) DO UPDATE SET status = 'running', result = NULL, error_code = '',
    requested_at = excluded.requested_at, finished_at = NULL
WHERE reviews.status <> 'done'`
	finishReview = `INSERT INTO reviews (match_id, method, status, result, error_code, requested_at, finished_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (match_id, method) DO UPDATE SET status = excluded.status, result = excluded.result,
    error_code = excluded.error_code, finished_at = excluded.finished_at
WHERE reviews.status <> 'done'`
)

// StartReview records the review of (id, method) as running through tx, a transaction of
// the caller's, unless it is done (reviews.Store's contract).
func StartReview(tx *gorm.DB, id, method string, at time.Time) (_ reviews.Record, started bool, _ error) {
	if err := matchExists(tx, id); err != nil {
		return reviews.Record{}, false, err
	}
	res := tx.Exec(startReview, id, method, FormatTime(at))
	if res.Error != nil {
		return reviews.Record{}, false, res.Error
	}
	if res.RowsAffected == 0 {
		rec, _, err := Review(tx, id, method)
		return rec, false, err
	}
	return reviews.Record{MatchID: id, Method: method, Status: reviews.StatusRunning, RequestedAt: at.UTC()}, true, nil
}

// FinishReview stores rec's outcome through tx, a transaction of the caller's, unless the
// review is done (reviews.Store's contract).
func FinishReview(tx *gorm.DB, rec reviews.Record) error {
	if rec.Status != reviews.StatusDone && rec.Status != reviews.StatusFailed {
		return fmt.Errorf("finish review of %s: status %q is no outcome", rec.MatchID, rec.Status)
	}
	if err := matchExists(tx, rec.MatchID); err != nil {
		return err
	}
	var result *string
	if rec.Status == reviews.StatusDone {
		r := string(rec.Result)
		result = &r
	}
	requested := rec.RequestedAt
	if requested.IsZero() {
		requested = rec.FinishedAt
	}
	return tx.Exec(finishReview, rec.MatchID, rec.Method, string(rec.Status), result, string(rec.Code),
		FormatTime(requested), FormatTime(rec.FinishedAt)).Error
}

// matchExists is nil when match id is stored, ErrMatchNotFound when not.
func matchExists(db *gorm.DB, id string) error {
	var n int64
	if err := db.Model(&MatchRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("match %q: %w", id, domain.ErrMatchNotFound)
	}
	return nil
}
