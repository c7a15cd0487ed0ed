package sqlrow

import (
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/players"
	"github.com/allfives/allfives/repository"
)

// PlayerRow is a row of players (migrations/*/00005_players.sql).
type PlayerRow struct {
	ID           string `gorm:"column:id;primaryKey"`
	Name         string `gorm:"column:name"`
	NameKey      string `gorm:"column:name_key"`
	KeyHash      []byte `gorm:"column:key_hash"`
	CreatedAt    string `gorm:"column:created_at"`
	KeyRotatedAt string `gorm:"column:key_rotated_at"`
}

// TableName tells GORM the table, which migrations/ names.
func (PlayerRow) TableName() string { return "players" }

// PlayerRowOf is a player record as a row of players.
func PlayerRowOf(rec players.Record) PlayerRow {
	return PlayerRow{
		ID: rec.ID, Name: rec.Name, NameKey: rec.NameKey, KeyHash: rec.KeyHash,
		CreatedAt: FormatTime(rec.CreatedAt), KeyRotatedAt: FormatTime(rec.KeyRotatedAt),
	}
}

// Record decodes a row of players.
func (r PlayerRow) Record() (players.Record, error) {
	created, err := ParseTime(r.CreatedAt)
	if err != nil {
		return players.Record{}, err
	}
	rotated, err := ParseTime(r.KeyRotatedAt)
	if err != nil {
		return players.Record{}, err
	}
	return players.Record{
		Player:  players.Player{ID: r.ID, Name: r.Name, CreatedAt: created},
		NameKey: r.NameKey, KeyHash: r.KeyHash, KeyRotatedAt: rotated,
	}, nil
}

// CreatePlayer inserts rec through db, the same statement on both engines: a name key already
// stored inserts nothing (ON CONFLICT DO NOTHING, which waits for a racing insert of the same
// key to commit or roll back) and is domain.ErrNameTaken, with no aborted transaction.
func CreatePlayer(db *gorm.DB, rec players.Record) error {
	if rec.ID == "" || rec.NameKey == "" || len(rec.KeyHash) == 0 {
		return domain.Invalidf("a player needs an id, a name key and a key hash")
	}
	row := PlayerRowOf(rec)
	res := db.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "name_key"}}, DoNothing: true}).Create(&row)
	switch {
	case res.Error != nil:
		return res.Error
	case res.RowsAffected == 0:
		return domain.ErrNameTaken
	}
	return nil
}

// PlayerWhere reads the one player matching the condition (an equality on a unique column:
// the id or the key hash, named by the caller's constant, never by input), or
// domain.ErrPlayerNotFound.
func PlayerWhere(db *gorm.DB, column string, value any) (players.Record, error) {
	var row PlayerRow
	err := db.Where(column+" = ?", value).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return players.Record{}, domain.ErrPlayerNotFound
	}
	if err != nil {
		return players.Record{}, fmt.Errorf("player: %w", err)
	}
	return row.Record()
}

// RotatePlayerKey swaps the key hash of player id from prev to next in one conditional UPDATE,
// so that of two rotations with one key only the first changes the row; it reports whether
// it did. When it did, the tokens of the seats bound to the player are revoked in the same
// transaction (RevokeSeatTokens); revoke, when not nil, does that instead (PostgreSQL's
// statement, which also announces the matches).
func RotatePlayerKey(db *gorm.DB, id string, prev, next []byte, at string, revoke func(tx *gorm.DB) error) (bool, error) {
	rotated := false
	err := db.Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&PlayerRow{}).Where("id = ? AND key_hash = ?", id, prev).
			Updates(map[string]any{"key_hash": next, "key_rotated_at": at})
		if rotated = res.RowsAffected == 1; res.Error != nil || !rotated {
			return res.Error
		}
		if revoke != nil {
			return revoke(tx)
		}
		return RevokeSeatTokens(tx, id)
	})
	return rotated && err == nil, err
}

// RevokeSeatTokens replaces the token hash of every seat bound to player, in every match, by
// repository.RevokedToken: a key rotated because it may have leaked takes the seats' tokens,
// which the same client held, with it (docs/api.md, "Players"). Seats with no token (a
// rematch's, unclaimed) keep none.
func RevokeSeatTokens(db *gorm.DB, player string) error {
	revoked := repository.RevokedToken()
	return db.Model(&SeatRow{}).
		Where("player_id = ? AND kind = 'human' AND token_hash IS NOT NULL AND token_hash <> ?", player, Blob(revoked)).
		Update("token_hash", Blob(revoked)).Error
}
