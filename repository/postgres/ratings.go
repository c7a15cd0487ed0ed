package postgres

import (
	"context"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/sqlrow"
)

var (
	_ ratings.Store     = (*Store)(nil)
	_ ratings.EndReader = (*Store)(nil)
)

// ratingDialect is PostgreSQL's: match.created's TEXT read as JSON.
var ratingDialect = sqlrow.Dialect{True: "TRUE", False: "FALSE", Rated: "(c.data::jsonb -> 'rated') = 'true'::jsonb", Commitment: "(c.data::jsonb ->> 'commitment')"}

// ratingsLock is the key of the projection's advisory lock (docs/ratings.md, "The
// projection"): "ratings" in ASCII, apart from goose's own lock.
const ratingsLock int64 = 0x72_61_74_69_6e_67_73

// Project runs fn in a transaction holding the projection's advisory lock, if no other
// session holds it: then ran is false and fn is not run. The lock is the transaction's
// (pg_try_advisory_xact_lock), so it ends with the commit or the rollback, and with the
// session if the instance dies or its connection breaks: another instance's next pass takes
// over, and the queue and the rating rows, written in the same transaction, say where.
func (s *Store) Project(ctx context.Context, fn func(ratings.Tx) error) (ran bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "rate matches")
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		ran = false
		var locked bool
		if err := tx.Raw(`SELECT pg_try_advisory_xact_lock(?)`, ratingsLock).Scan(&locked).Error; err != nil || !locked {
			return err
		}
		ran = true
		return fn(sqlrow.NewTx(tx, ratingDialect))
	})
	return ran && err == nil, err
}

// Replace puts a rebuild in place of every rating, in one transaction that waits for the
// projection's lock first (lock_timeout bounds the wait).
func (s *Store) Replace(ctx context.Context, done []ratings.Queued, changes []ratings.Change, standings []ratings.Standing) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "replace the ratings")
	return s.inTx(ctx, func(tx *gorm.DB) error {
		if err := tx.Exec(`SELECT pg_advisory_xact_lock(?)`, ratingsLock).Error; err != nil {
			return err
		}
		return sqlrow.Replace(tx, done, changes, standings)
	})
}

// RatedEnds lists every rated match's end from the events.
func (s *Store) RatedEnds(ctx context.Context) (_ []ratings.Queued, err error) {
	defer classify(&err)
	return sqlrow.RatedEnds(s.db.WithContext(ctx), ratingDialect)
}

// AllStandings is every standing.
func (s *Store) AllStandings(ctx context.Context) (_ []ratings.Standing, err error) {
	defer classify(&err)
	return sqlrow.AllStandings(s.db.WithContext(ctx))
}

// AllChanges is every change.
func (s *Store) AllChanges(ctx context.Context) (_ []ratings.Change, err error) {
	defer classify(&err)
	return sqlrow.AllChanges(s.db.WithContext(ctx))
}

// PlayerStandings is a player's standing per format.
func (s *Store) PlayerStandings(ctx context.Context, player string) (_ []ratings.Standing, err error) {
	defer classify(&err)
	return sqlrow.PlayerStandings(s.db.WithContext(ctx), player)
}

// PlayerChanges is a page of a player's changes, newest first.
func (s *Store) PlayerChanges(ctx context.Context, player string, format ratings.Format, before *ratings.Key, limit int) (_ []ratings.Change, err error) {
	defer classify(&err)
	return sqlrow.PlayerChanges(s.db.WithContext(ctx), player, format, before, limit)
}

// Leaderboard is a page of a format's leaderboard.
func (s *Store) Leaderboard(ctx context.Context, format ratings.Format, who ratings.Players, after *ratings.BoardPosition, limit int) (_ []ratings.BoardRow, err error) {
	defer classify(&err)
	return sqlrow.Leaderboard(s.db.WithContext(ctx), ratingDialect, format, who, after, limit)
}

// MatchChanges is one match's changes.
func (s *Store) MatchChanges(ctx context.Context, id string) (_ []ratings.Change, err error) {
	defer classify(&err)
	return sqlrow.MatchChanges(s.db.WithContext(ctx), id)
}

// OpeningAndEnd reads a log's first head events and its event endSeq in one query.
func (s *Store) OpeningAndEnd(ctx context.Context, id string, head, endSeq int) (_ []domain.Event, err error) {
	defer classify(&err)
	return sqlrow.OpeningAndEnd(s.db.WithContext(ctx), id, head, endSeq)
}
