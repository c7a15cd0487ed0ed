package sqlrow

import (
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/names"
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
	Program      bool   `gorm:"column:program"` // migration 00018
}

// TableName tells GORM the table, which migrations/ names.
func (PlayerRow) TableName() string { return "players" }

// PlayerRowOf is a player record as a row of players.
func PlayerRowOf(rec players.Record) PlayerRow {
	return PlayerRow{
		ID: rec.ID, Name: rec.Name, NameKey: rec.NameKey, KeyHash: rec.KeyHash,
		CreatedAt: FormatTime(rec.CreatedAt), KeyRotatedAt: FormatTime(rec.KeyRotatedAt), Program: rec.Program,
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
		Player:  players.Player{ID: r.ID, Name: r.Name, CreatedAt: created, Program: r.Program},
		NameKey: r.NameKey, KeyHash: r.KeyHash, KeyRotatedAt: rotated,
	}, nil
}

// SkeletonRow is a row of player_skeletons (migration 00012): a player's name skeleton, unique,
// kept apart from players so that the players table, its statistics and the plans made from
// them stay what they were (an index built on players would have PostgreSQL count its rows,
// and plan the key lookup of a new database as a scan). Skeleton is NULL for a player whose
// name, kept before 00012, looks like an older player's (BackfillNameSkeletons).
type SkeletonRow struct {
	PlayerID string  `gorm:"column:player_id;primaryKey"`
	Skeleton *string `gorm:"column:skeleton"`
}

// TableName tells GORM the table.
func (SkeletonRow) TableName() string { return "player_skeletons" }

// CreatePlayer inserts rec through db in one transaction, the same statements on both engines:
// the player, then its name skeleton. A name key or a skeleton already stored inserts nothing
// (ON CONFLICT DO NOTHING, which waits for a racing insert of the same key to commit or roll
// back, and aborts nothing) and is players.ErrNameTaken, the player's row rolled back with it.
func CreatePlayer(db *gorm.DB, rec players.Record) error {
	if rec.ID == "" || rec.NameKey == "" || rec.NameSkeleton == "" || len(rec.KeyHash) == 0 {
		return domain.Invalidf("a player needs an id, a name key, a name skeleton and a key hash")
	}
	return db.Transaction(func(tx *gorm.DB) error {
		row := PlayerRowOf(rec)
		res := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "name_key"}}, DoNothing: true}).Create(&row)
		switch {
		case res.Error != nil:
			return res.Error
		case res.RowsAffected == 0:
			return players.ErrNameTaken
		}
		sk := SkeletonRow{PlayerID: rec.ID, Skeleton: &rec.NameSkeleton}
		res = tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "skeleton"}}, DoNothing: true}).Create(&sk)
		switch {
		case res.Error != nil:
			return res.Error
		case res.RowsAffected == 0:
			return players.ErrNameTaken
		}
		return nil
	})
}

// PlayerWhere reads the one player matching the condition (an equality on a unique column:
// the id or the key hash, named by the caller's constant, never by input), or
// players.ErrPlayerNotFound.
func PlayerWhere(db *gorm.DB, column string, value any) (players.Record, error) {
	var row PlayerRow
	err := db.Where(column+" = ?", value).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return players.Record{}, players.ErrPlayerNotFound
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
// which the same client held, with it (docs/api-players.md, "Players"). Seats with no token (a
// rematch's, unclaimed) keep none.
func RevokeSeatTokens(db *gorm.DB, player string) error {
	revoked := repository.RevokedToken()
	return db.Model(&SeatRow{}).
		Where("player_id = ? AND kind = 'human' AND token_hash IS NOT NULL AND token_hash <> ?", player, Blob(revoked)).
		Update("token_hash", Blob(revoked)).Error
}

// Unskeletoned is a player that BackfillNameSkeletons left without a skeleton: its name looks
// like an older player's.
type Unskeletoned struct {
	ID, Name string
	// Like is the id of the older player whose name it looks like ("" when the name itself no
	// longer reads as a name, which only a change of Unicode's tables could cause).
	Like string
}

// BackfillNameSkeletons gives every player without a row of player_skeletons (those stored
// before migration 00012, or by a server of an older version since) its name's skeleton, in
// the order players were created: SQL cannot compute a skeleton. A player whose name looks
// like an older player's keeps its name, its key and its matches, with a NULL skeleton; the
// older player's skeleton keeps every new look-alike of both out. So a database that holds
// both "Bob" and "Вob" still opens, and nothing is renamed. An instance racing to do the same
// inserts nothing twice (ON CONFLICT DO NOTHING). It returns the players left without one.
func BackfillNameSkeletons(db *gorm.DB) ([]Unskeletoned, error) {
	var rows []PlayerRow
	if err := db.Raw(`SELECT p.id, p.name FROM players p
		WHERE NOT EXISTS (SELECT 1 FROM player_skeletons s WHERE s.player_id = p.id)
		ORDER BY p.created_at, p.id`).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("players without a name skeleton: %w", err)
	}
	var left []Unskeletoned
	for _, r := range rows {
		skeleton, err := names.Skeleton(r.Name)
		if err == nil {
			res := db.Exec(`INSERT INTO player_skeletons (player_id, skeleton) VALUES (?, ?) ON CONFLICT DO NOTHING`, r.ID, skeleton)
			if res.Error != nil {
				return left, fmt.Errorf("name skeleton of player %s: %w", r.ID, res.Error)
			}
			if res.RowsAffected == 1 {
				continue
			}
		}
		res := db.Exec(`INSERT INTO player_skeletons (player_id, skeleton) VALUES (?, NULL) ON CONFLICT DO NOTHING`, r.ID)
		if res.Error != nil {
			return left, fmt.Errorf("name skeleton of player %s: %w", r.ID, res.Error)
		}
		if res.RowsAffected == 0 {
			continue // another instance did it first
		}
		p := Unskeletoned{ID: r.ID, Name: r.Name}
		if err == nil {
			var like []string
			if err := db.Model(&SkeletonRow{}).Where("skeleton = ?", skeleton).Limit(1).Pluck("player_id", &like).Error; err != nil {
				return left, fmt.Errorf("the player whose name looks like %s's: %w", r.ID, err)
			}
			if len(like) > 0 {
				p.Like = like[0]
			}
		}
		left = append(left, p)
	}
	return left, nil
}
