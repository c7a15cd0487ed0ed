package sqlite

import (
	"context"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

// History lists matches newest first, keyset-paged (sqlrow.History); "listed = 1" is how this
// dialect's matches_lobby index says a match is listed.
func (s *Store) History(ctx context.Context, q referee.HistoryQuery) (_ referee.HistoryPage, err error) {
	defer domain.Wrap(&err, "history")
	return sqlrow.History(s.r.WithContext(ctx), s.log, "listed = 1", q)
}

// Due lists the matches the clock must act on, soonest first (sqlrow.Due).
func (s *Store) Due(ctx context.Context, q referee.DueQuery) (_ []string, err error) {
	defer domain.Wrap(&err, "due matches")
	return sqlrow.Due(s.r.WithContext(ctx), q)
}

// PlayerMatches lists a player's matches newest first, from the index of seats bound to
// players (sqlrow.PlayerMatches).
func (s *Store) PlayerMatches(ctx context.Context, q referee.PlayerMatchQuery) (_ referee.PlayerMatchPage, err error) {
	defer s.read(&err)
	return sqlrow.PlayerMatches(s.r.WithContext(ctx), s.log, q)
}
