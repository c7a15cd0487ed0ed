package sqlrow

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/matchmaking"
)

// SeekRow is a row of seeks (migrations/*/00013_seeks.sql). Times are Unix nanoseconds.
type SeekRow struct {
	ID          string  `gorm:"column:id;primaryKey"`
	PlayerID    string  `gorm:"column:player_id"`
	Format      string  `gorm:"column:format"`
	Rated       bool    `gorm:"column:rated"`
	TurnSeconds int     `gorm:"column:turn_seconds"`
	Target      int     `gorm:"column:target"`
	Rating      float64 `gorm:"column:rating"`
	Status      string  `gorm:"column:status"`
	CreatedAt   int64   `gorm:"column:created_at"`
	ExpiresAt   int64   `gorm:"column:expires_at"`
	EndedAt     int64   `gorm:"column:ended_at"`
	MatchID     string  `gorm:"column:match_id"`
	Seat        int     `gorm:"column:seat"`
	Reason      string  `gorm:"column:reason"`
}

// TableName tells GORM the table, which migrations/ names.
func (SeekRow) TableName() string { return "seeks" }

// SeekRowOf is r as a row.
func SeekRowOf(r seeks.Record) SeekRow {
	return SeekRow{
		ID: r.ID, PlayerID: r.Player, Format: string(r.Format), Rated: r.Rated, TurnSeconds: r.TurnSeconds,
		Target: r.Target, Rating: r.Rating, Status: string(r.Status), CreatedAt: r.CreatedAt.UnixNano(),
		ExpiresAt: r.ExpiresAt.UnixNano(), EndedAt: nanosOf(r.EndedAt), MatchID: r.Match, Seat: r.Seat, Reason: r.Reason,
	}
}

// Record is the seek of a row.
func (r SeekRow) Record() seeks.Record {
	out := seeks.Record{
		ID: r.ID, Player: r.PlayerID, Format: matchmaking.Format(r.Format), Rated: r.Rated, TurnSeconds: r.TurnSeconds,
		Target: r.Target, Rating: r.Rating, Status: seeks.Status(r.Status), CreatedAt: time.Unix(0, r.CreatedAt).UTC(),
		ExpiresAt: time.Unix(0, r.ExpiresAt).UTC(), Match: r.MatchID, Seat: r.Seat, Reason: r.Reason,
	}
	if r.EndedAt != 0 {
		out.EndedAt = time.Unix(0, r.EndedAt).UTC()
	}
	return out
}

func nanosOf(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// seekColumns are the columns every read of seeks selects.
const seekColumns = "id, player_id, format, rated, turn_seconds, target, rating, status, created_at, expires_at, ended_at, match_id, seat, reason"

// PutSeek inserts r.
func PutSeek(db *gorm.DB, r seeks.Record) error {
	row := SeekRowOf(r)
	return db.Exec("INSERT INTO seeks ("+seekColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		row.ID, row.PlayerID, row.Format, row.Rated, row.TurnSeconds, row.Target, row.Rating, row.Status,
		row.CreatedAt, row.ExpiresAt, row.EndedAt, row.MatchID, row.Seat, row.Reason).Error
}

// Seeks reads the seeks a WHERE clause selects (with its ORDER BY and LIMIT).
func Seeks(ctx context.Context, db *gorm.DB, where string, args ...any) ([]seeks.Record, error) {
	var rows []SeekRow
	if err := db.WithContext(ctx).Raw("SELECT "+seekColumns+" FROM seeks WHERE "+where, args...).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]seeks.Record, len(rows))
	for i, r := range rows {
		out[i] = r.Record()
	}
	return out, nil
}

// CancelSeek cancels seek id if it searches; the caller reads it back.
func CancelSeek(db *gorm.DB, id string, now time.Time, reason string) error {
	return db.Exec("UPDATE seeks SET status = 'cancelled', ended_at = ?, reason = ? WHERE id = ? AND status = 'searching'", now.UnixNano(), reason, id).Error
}

// CancelSeeksOf cancels the searching seeks of player and counts them.
func CancelSeeksOf(db *gorm.DB, player string, now time.Time, reason string) (int, error) {
	res := db.Exec("UPDATE seeks SET status = 'cancelled', ended_at = ?, reason = ? WHERE player_id = ? AND status = 'searching'", now.UnixNano(), reason, player)
	return int(res.RowsAffected), res.Error
}

// ExpireSeeks expires the searching seeks due at now and counts them.
func ExpireSeeks(db *gorm.DB, now time.Time) (int, error) {
	res := db.Exec("UPDATE seeks SET status = 'expired', ended_at = expires_at WHERE status = 'searching' AND expires_at <= ?", now.UnixNano())
	return int(res.RowsAffected), res.Error
}

// ClaimSeeks claims each seek of claims for match in tx, only while it searches; false when
// one no longer did (the caller rolls back).
func ClaimSeeks(tx *gorm.DB, match string, claims []seeks.Claim, now time.Time) (bool, error) {
	for _, c := range claims {
		res := tx.Exec("UPDATE seeks SET status = 'pairing', match_id = ?, seat = ?, ended_at = ? WHERE id = ? AND status = 'searching'",
			match, c.Seat, now.UnixNano(), c.Seek)
		if res.Error != nil || res.RowsAffected != 1 {
			return false, res.Error
		}
	}
	return true, nil
}

// SettleSeeks ends the pairing seeks of match: matched, or searching again.
func SettleSeeks(db *gorm.DB, match string, matched bool) error {
	if matched {
		return db.Exec("UPDATE seeks SET status = 'matched' WHERE match_id = ? AND status = 'pairing'", match).Error
	}
	return db.Exec("UPDATE seeks SET status = 'searching', match_id = '', seat = -1, ended_at = 0 WHERE match_id = ? AND status = 'pairing'", match).Error
}
