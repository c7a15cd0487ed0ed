package puzzles

import "github.com/allfives/allfives/domain"

// The codes of the puzzles (docs/puzzles.md, "Errors").
const (
	// CodePuzzleNotFound: no puzzle has that id.
	CodePuzzleNotFound domain.Code = "PUZZLE_NOT_FOUND"
	// CodeNoPuzzle: no puzzle is left for the solver (none yet, or every one is from the
	// solver's own matches or attempted already).
	CodeNoPuzzle domain.Code = "NO_PUZZLE"
	// CodeNotAnOption: the move of an attempt is not one of the puzzle's options.
	CodeNotAnOption domain.Code = "NOT_AN_OPTION"
	// CodeNotYourPuzzles: a player's own puzzles (its mistakes) are listed only with its key.
	CodeNotYourPuzzles domain.Code = "NOT_YOUR_PUZZLES"
)

// The errors of the puzzles (docs/puzzles.md, "Errors").
var (
	ErrPuzzleNotFound = domain.NewError(CodePuzzleNotFound, "puzzle not found")
	ErrNoPuzzle       = domain.NewError(CodeNoPuzzle, "no puzzle is left for you: puzzles come from reviewed matches, never from your own, and each is offered until you attempt it")
	ErrNotAnOption    = domain.NewError(CodeNotAnOption, "the move is not one of the puzzle's legal moves: send one of legal_moves, by action, tile and end")
	ErrNotYourPuzzles = domain.NewError(CodeNotYourPuzzles, "a player's puzzles are its own mistakes: only that player's key lists them")
)
