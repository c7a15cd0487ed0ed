package puzzles

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/openskill"
)

// Position is what the deciding seat saw when it decided (docs/puzzles.md, "The position"),
// and nothing else: no other hand, no boneyard tile, not the source match. It is stored as
// JSON, its durable record, and answered field for field.
type Position struct {
	Seat         int      `json:"seat"`
	Players      int      `json:"players"`
	Partnerships bool     `json:"partnerships"`
	Target       int      `json:"target"`
	Scores       []int    `json:"scores"`
	HandNumber   int      `json:"hand_number"`
	Hand         []string `json:"hand"`
	Line         []string `json:"line"` // left to right, each tile as it lies
	HandSizes    []int    `json:"hand_sizes"`
	Boneyard     int      `json:"boneyard"`
	History      []Step   `json:"history"`
	LegalMoves   []Move   `json:"legal_moves"`
}

// Step is one event of the hand before the decision as the seat saw it: a play (the seat,
// the tile and the end), a seat's run of draws as a count, or a pass.
type Step struct {
	Seat   int    `json:"seat"`
	Action string `json:"action"`
	Tile   string `json:"tile,omitempty"`
	End    string `json:"end,omitempty"`
	Count  int    `json:"count,omitempty"`
}

// Move is a move as legal_moves writes it: the action, and for a play the tile and the end.
type Move = analysis.Move

// Option is one legal move and its value for the seat's side, in points: the review's.
type Option = analysis.Candidate

// Puzzle is one decision of a reviewed match that the rule made a puzzle of.
type Puzzle struct {
	ID    string
	Match string // the source match; told only with an attempt's answer
	Step  int    // the review's seq of the decision
	Seat  int
	// Player is the lasting player whose decision it was; empty for a bot's, an anonymous
	// seat's, or a move its bot made for it (timed out, on autoplay, resigned).
	Player string
	// Players are every lasting player of the source match: none of them is offered it.
	Players  []string
	Position Position
	Options  []Option // the review's values, in LegalMoves' order
	Played   Move
	Best     Move
	Loss     float64
	Rating   openskill.Rating
	// Attempts and Solved count the rated first attempts at it.
	Attempts, Solved int
	CreatedAt        time.Time
}

// Solver is a player's puzzle rating, kept apart from its ratings of play.
type Solver struct {
	Player           string
	Rating           openskill.Rating
	Attempts, Solved int
}

// Attempt is one player's first attempt at a puzzle, the one that is rated.
type Attempt struct {
	Puzzle, Player string
	Correct        bool
	At             time.Time
}

// Rate is the rating of a rated attempt: the solver's and the puzzle's ratings before, in,
// and after, out. The store calls it inside the transaction that records the attempt.
type Rate func(solver, puzzle openskill.Rating, correct bool) (openskill.Rating, openskill.Rating, error)

// Store is the port for puzzles (docs/puzzles.md, "Storage"); the SQLite and PostgreSQL stores
// implement it and pass storetest.RunPuzzles.
type Store interface {
	// PutPuzzles stores new puzzles; one whose (Match, Step) is stored already is left as it is.
	PutPuzzles(ctx context.Context, ps []Puzzle) error
	// Puzzle reads puzzle id, ok false when there is none.
	Puzzle(ctx context.Context, id string) (p Puzzle, ok bool, err error)
	// NextPuzzle is the puzzle nearest (mu, from) in the order of its rating's Mu and its id,
	// among those that player has not attempted and whose match player was not in (any, for
	// player ""): from, a random id, picks among puzzles of one Mu at random. Its Players are
	// left out (the selection has used them). ok false when none is left.
	NextPuzzle(ctx context.Context, player string, mu float64, from string) (p Puzzle, ok bool, err error)
	// PlayerPuzzles reads up to limit puzzles of player's own decisions, newest first.
	PlayerPuzzles(ctx context.Context, player string, limit int) ([]Puzzle, error)
	// Solver reads player's puzzle rating, ok false before its first rated attempt.
	Solver(ctx context.Context, player string) (s Solver, ok bool, err error)
	// RecordAttempt records a player's first attempt at a puzzle and, in the same transaction,
	// rates it with rate from the stored ratings (a new solver's is start) and stores both
	// ratings. first is false, and nothing changes, when the player attempted it before.
	RecordAttempt(ctx context.Context, a Attempt, start openskill.Rating, rate Rate) (s Solver, first bool, err error)
}
