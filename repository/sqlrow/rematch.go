package sqlrow

import (
	"gorm.io/gorm"
)

// LinkRematch sets next_match_id of match id to next unless it names a match already
// (migrations/*/00006_rematch.sql); an unknown id is ErrMatchNotFound.
func LinkRematch(db *gorm.DB, id, next string) error {
	res := db.Model(&MatchRow{}).Where("id = ? AND next_match_id IS NULL", id).Update("next_match_id", next)
	if res.Error != nil || res.RowsAffected == 1 {
		return res.Error
	}
	return matchExists(db, id)
}

// ClaimSeat stores hash as the token hash of human seat seat of match id if it has none, and
// reports whether it did: the UPDATE's guard makes exactly one of two claims win.
func ClaimSeat(db *gorm.DB, id string, seat int, hash []byte) (bool, error) {
	res := db.Model(&SeatRow{}).Where("match_id = ? AND seat = ? AND kind = 'human' AND token_hash IS NULL", id, seat).
		Update("token_hash", Blob(hash))
	return res.RowsAffected == 1, res.Error
}
