package sqlite

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

// ratingDialect is SQLite's: booleans are 0 and 1, and json_extract reads JSON true as 1.
var ratingDialect = sqlrow.Dialect{True: "1", False: "0", Rated: "json_extract(c.data, '$.rated') = 1", Commitment: "json_extract(c.data, '$.commitment')"}

// Project runs fn in one transaction on the writer, between the committer's batches: one
// process writes a SQLite file, and the writer's lock (BEGIN IMMEDIATE) keeps out any other
// process's writes, a rebuild's included, until it commits. It always runs.
func (s *Store) Project(ctx context.Context, fn func(ratings.Tx) error) (_ bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "rate matches")
	s.writing.Lock()
	defer s.writing.Unlock()
	err = s.w.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return fn(sqlrow.NewTx(tx, ratingDialect))
	})
	return err == nil, err
}

// Replace puts a rebuild in place of every rating, in one transaction on the writer.
func (s *Store) Replace(ctx context.Context, done []ratings.Queued, changes []ratings.Change, standings []ratings.Standing) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "replace the ratings")
	s.writing.Lock()
	defer s.writing.Unlock()
	return s.w.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return sqlrow.Replace(tx, done, changes, standings)
	})
}

// RatedEnds lists every rated match's end from the events.
func (s *Store) RatedEnds(ctx context.Context) (_ []ratings.Queued, err error) {
	defer s.read(&err)
	return sqlrow.RatedEnds(s.r.WithContext(ctx), ratingDialect)
}

// AllStandings is every standing.
func (s *Store) AllStandings(ctx context.Context) (_ []ratings.Standing, err error) {
	defer s.read(&err)
	return sqlrow.AllStandings(s.r.WithContext(ctx))
}

// AllChanges is every change.
func (s *Store) AllChanges(ctx context.Context) (_ []ratings.Change, err error) {
	defer s.read(&err)
	return sqlrow.AllChanges(s.r.WithContext(ctx))
}

// PlayerStandings is a player's standing per format.
func (s *Store) PlayerStandings(ctx context.Context, player string) (_ []ratings.Standing, err error) {
	defer s.read(&err)
	return sqlrow.PlayerStandings(s.r.WithContext(ctx), player)
}

// PlayerChanges is a page of a player's changes, newest first.
func (s *Store) PlayerChanges(ctx context.Context, player string, format ratings.Format, before *ratings.Key, limit int) (_ []ratings.Change, err error) {
	defer s.read(&err)
	return sqlrow.PlayerChanges(s.r.WithContext(ctx), player, format, before, limit)
}

// Leaderboard is a page of a format's leaderboard.
func (s *Store) Leaderboard(ctx context.Context, format ratings.Format, who ratings.Players, after *ratings.BoardPosition, limit int) (_ []ratings.BoardRow, err error) {
	defer s.read(&err)
	return sqlrow.Leaderboard(s.r.WithContext(ctx), ratingDialect, format, who, after, limit)
}

// MatchChanges is one match's changes.
func (s *Store) MatchChanges(ctx context.Context, id string) (_ []ratings.Change, err error) {
	defer s.read(&err)
	return sqlrow.MatchChanges(s.r.WithContext(ctx), id)
}

// OpeningAndEnd reads a log's first head events and its event endSeq in one query.
func (s *Store) OpeningAndEnd(ctx context.Context, id string, head, endSeq int) (_ []domain.Event, err error) {
	defer s.read(&err)
	return sqlrow.OpeningAndEnd(s.r.WithContext(ctx), id, head, endSeq)
}
