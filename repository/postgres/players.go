package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ players.Store = (*Store)(nil)

// CreatePlayer stores a new player; a name key already stored, by this instance or another,
// is players.ErrNameTaken.
func (s *Store) CreatePlayer(ctx context.Context, rec players.Record) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "create player %s", rec.ID)
	return sqlrow.CreatePlayer(s.db.WithContext(ctx), rec)
}

// Player returns the player with that id, or players.ErrPlayerNotFound.
func (s *Store) Player(ctx context.Context, id string) (_ players.Record, err error) {
	defer classify(&err)
	return sqlrow.PlayerWhere(s.db.WithContext(ctx), "id", id)
}

// sqlPlayerByKeyHash finds a player by the unique index players_key_hash.
const sqlPlayerByKeyHash = "SELECT id, name, name_key, key_hash, created_at, key_rotated_at FROM players WHERE key_hash = $1"

// PlayerByKeyHash returns the player whose key hashes to hash, by the unique index on
// key_hash, or players.ErrPlayerNotFound. Every call asks the database, so a rotation
// committed by any instance refuses the old key at once on all of them. A read of a match
// made with a key does not call it: the key is looked up in the read's head check
// (HeadAndKey, head.go). The calls that remain (a player's own routes) go straight to the
// pool, past gorm, as the head check does: one index lookup in one round trip, its statement
// prepared once per connection (pgx's statement cache).
func (s *Store) PlayerByKeyHash(ctx context.Context, hash []byte) (_ players.Record, err error) {
	defer classify(&err)
	var r sqlrow.PlayerRow
	err = s.sqlDB.QueryRowContext(ctx, sqlPlayerByKeyHash, hash).
		Scan(&r.ID, &r.Name, &r.NameKey, &r.KeyHash, &r.CreatedAt, &r.KeyRotatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return players.Record{}, players.ErrPlayerNotFound
	}
	if err != nil {
		return players.Record{}, fmt.Errorf("player: %w", err)
	}
	return r.Record()
}

// RotatePlayerKey replaces the key hash of player id with next if it is still prev: the
// UPDATE's row lock makes a racing rotation wait, then find prev gone. In the same transaction
// it revokes the tokens of the player's seats and announces each of their matches with
// version 0 (sqlRevokeSeatTokens), so that every instance drops its copy, whose seats still
// hold the old tokens' hashes.
func (s *Store) RotatePlayerKey(ctx context.Context, id string, prev, next []byte, at time.Time) (_ bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "rotate the key of player %s", id)
	return sqlrow.RotatePlayerKey(s.db.WithContext(ctx), id, prev, next, sqlrow.FormatTime(at), func(tx *gorm.DB) error {
		revoked := repository.RevokedToken()
		var n int
		return tx.Raw(sqlRevokeSeatTokens, revoked, id, revoked).Scan(&n).Error
	})
}

// sqlRevokeSeatTokens is sqlrow.RevokeSeatTokens with the announcement of each match whose seat
// it revoked: "0 <id>" on the appends' channel, which the referee reads as "its seats changed
// without an append" (referee.Notifier). NOTIFY is sent when the transaction commits.
const sqlRevokeSeatTokens = `WITH revoked AS (
	UPDATE seats SET token_hash = ? WHERE player_id = ? AND kind = 'human' AND token_hash IS NOT NULL AND token_hash <> ?
	RETURNING match_id)
SELECT count(pg_notify('` + Channel + `', '0 ' || match_id)) FROM revoked`
