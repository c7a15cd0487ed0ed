package sqlite

import (
	"context"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/openskill"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ puzzles.Store = (*Store)(nil)

// PutPuzzles stores new puzzles in one transaction on the writer.
func (s *Store) PutPuzzles(ctx context.Context, ps []puzzles.Puzzle) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "store puzzles")
	s.writing.Lock()
	defer s.writing.Unlock()
	tx := s.w.WithContext(ctx).Begin()
	if tx.Error != nil {
		return tx.Error
	}
	defer tx.Rollback()
	if err := sqlrow.PutPuzzles(tx, ps); err != nil {
		return err
	}
	return tx.Commit().Error
}

// Puzzle reads puzzle id.
func (s *Store) Puzzle(ctx context.Context, id string) (_ puzzles.Puzzle, _ bool, err error) {
	defer s.read(&err)
	got, err := sqlrow.Puzzles(ctx, s.r, "id = ?", id)
	if err != nil || len(got) == 0 {
		return puzzles.Puzzle{}, false, err
	}
	return got[0], true, nil
}

// NextPuzzle reads the puzzle nearest (mu, from) that player may be offered.
func (s *Store) NextPuzzle(ctx context.Context, player string, mu float64, from string) (_ puzzles.Puzzle, _ bool, err error) {
	defer s.read(&err)
	return sqlrow.NextPuzzle(ctx, s.r, player, mu, from)
}

// PlayerPuzzles reads player's own puzzles, newest first.
func (s *Store) PlayerPuzzles(ctx context.Context, player string, limit int) (_ []puzzles.Puzzle, err error) {
	defer s.read(&err)
	return sqlrow.PlayerPuzzles(ctx, s.r, player, limit)
}

// Solver reads player's puzzle rating.
func (s *Store) Solver(ctx context.Context, player string) (_ puzzles.Solver, _ bool, err error) {
	defer s.read(&err)
	return sqlrow.Solver(ctx, s.r, player)
}

// RecordAttempt records and rates a first attempt in one transaction on the writer, which
// is one at a time: the rows it rates need no lock of their own.
func (s *Store) RecordAttempt(ctx context.Context, a puzzles.Attempt, start openskill.Rating, rate puzzles.Rate) (_ puzzles.Solver, _ bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "record a puzzle attempt")
	s.writing.Lock()
	defer s.writing.Unlock()
	tx := s.w.WithContext(ctx).Begin()
	if tx.Error != nil {
		return puzzles.Solver{}, false, tx.Error
	}
	defer tx.Rollback()
	sv, first, err := sqlrow.RecordAttempt(ctx, tx, a, start, rate, "")
	if err != nil || !first {
		return sv, false, err
	}
	return sv, true, tx.Commit().Error
}
