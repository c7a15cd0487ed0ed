package postgres

import (
	"context"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/openskill"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ puzzles.Store = (*Store)(nil)

// PutPuzzles stores new puzzles in one transaction.
func (s *Store) PutPuzzles(ctx context.Context, ps []puzzles.Puzzle) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "store puzzles")
	return s.inTx(ctx, func(tx *gorm.DB) error { return sqlrow.PutPuzzles(tx, ps) })
}

// Puzzle reads puzzle id.
func (s *Store) Puzzle(ctx context.Context, id string) (_ puzzles.Puzzle, _ bool, err error) {
	defer classify(&err)
	got, err := sqlrow.Puzzles(ctx, s.db, "id = ?", id)
	if err != nil || len(got) == 0 {
		return puzzles.Puzzle{}, false, err
	}
	return got[0], true, nil
}

// NextPuzzle reads the puzzle nearest (mu, from) that player may be offered.
func (s *Store) NextPuzzle(ctx context.Context, player string, mu float64, from string) (_ puzzles.Puzzle, _ bool, err error) {
	defer classify(&err)
	return sqlrow.NextPuzzle(ctx, s.db, player, mu, from)
}

// PlayerPuzzles reads player's own puzzles, newest first.
func (s *Store) PlayerPuzzles(ctx context.Context, player string, limit int) (_ []puzzles.Puzzle, err error) {
	defer classify(&err)
	return sqlrow.PlayerPuzzles(ctx, s.db, player, limit)
}

// Solver reads player's puzzle rating.
func (s *Store) Solver(ctx context.Context, player string) (_ puzzles.Solver, _ bool, err error) {
	defer classify(&err)
	return sqlrow.Solver(ctx, s.db, player)
}

// RecordAttempt records and rates a first attempt in one transaction, the puzzle's row and
// then the solver's locked FOR UPDATE, so two solvers of one puzzle rate one after the other.
func (s *Store) RecordAttempt(ctx context.Context, a puzzles.Attempt, start openskill.Rating, rate puzzles.Rate) (sv puzzles.Solver, first bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "record a puzzle attempt")
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		var terr error
		sv, first, terr = sqlrow.RecordAttempt(ctx, tx, a, start, rate, " FOR UPDATE")
		return terr
	})
	return sv, first, err
}
