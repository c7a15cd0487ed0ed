package api

import (
	"github.com/allfives/allfives/domain/app/puzzles"
)

// The wire types of the puzzles (docs/puzzles.md).

// PuzzleMove is a move as legal_moves writes it: the action, and for a play the tile and the
// end.
type PuzzleMove struct {
	Action string `json:"action" enums:"play,draw,pass"`
	Tile   string `json:"tile,omitempty" example:"4-6"`
	End    string `json:"end,omitempty" enums:"left,right"`
}

// PuzzleStep is one event of the hand before the decision, as the seat saw it: a play, a
// seat's run of draws as a count, or a pass.
type PuzzleStep struct {
	Seat   int    `json:"seat"`
	Action string `json:"action" enums:"play,draw,pass"`
	Tile   string `json:"tile,omitempty" example:"3-6"`
	End    string `json:"end,omitempty" enums:"left,right"`
	// Count is how many tiles the seat drew in a row; only with draw.
	Count int `json:"count,omitempty"`
}

// PuzzlePosition is what the deciding seat saw, and nothing else: its own tiles, the line,
// the scores, the target, the other hands' sizes, the boneyard's size and the hand's events.
type PuzzlePosition struct {
	Seat         int   `json:"seat"`
	Players      int   `json:"players" minimum:"2" maximum:"4"`
	Partnerships bool  `json:"partnerships"`
	Target       int   `json:"target"`
	Scores       []int `json:"scores"`
	HandNumber   int   `json:"hand_number"`
	// Hand is the seat's own tiles.
	Hand []string `json:"hand" example:"1-4,6-6"`
	// Line is left to right, each tile as it lies.
	Line      []string     `json:"line" example:"3-6,6-2"`
	HandSizes []int        `json:"hand_sizes"`
	Boneyard  int          `json:"boneyard"`
	History   []PuzzleStep `json:"history"`
}

// Puzzle is one puzzle as a solver sees it before an attempt: no source, no values.
type Puzzle struct {
	ID         string         `json:"id" example:"pz5f0c3a9e1b7d24c6a8e0f1b2"`
	Position   PuzzlePosition `json:"position"`
	LegalMoves []PuzzleMove   `json:"legal_moves"`
	// Rating is the puzzle's displayed puzzle rating (mu - 3 sigma, rounded).
	Rating int `json:"rating"`
}

// PuzzleSolver is a player's puzzle rating, apart from its ratings of play.
type PuzzleSolver struct {
	// Rating is the displayed puzzle rating (mu - 3 sigma, rounded).
	Rating   int     `json:"rating"`
	Mu       float64 `json:"mu"`
	Sigma    float64 `json:"sigma"`
	Attempts int     `json:"attempts"`
	Solved   int     `json:"solved"`
}

// NextPuzzleResponse is the answer of GET /api/v1/puzzles/next.
type NextPuzzleResponse struct {
	Puzzle Puzzle `json:"puzzle"`
	// Solver is the caller's puzzle rating; only with a key, once it attempted one.
	Solver *PuzzleSolver `json:"solver,omitempty"`
}

// AttemptRequest is the body of POST /api/v1/puzzles/{id}/attempts.
type AttemptRequest struct {
	Move *PuzzleMove `json:"move" validate:"required"`
}

// PuzzleOption is one legal move and its value for the seat's side in points, the review's.
type PuzzleOption struct {
	Move  PuzzleMove `json:"move"`
	Value float64    `json:"value"`
	// Played says the source's seat made this move.
	Played bool `json:"played"`
	// Best says this is the best option.
	Best bool `json:"best"`
}

// PuzzleSource is the decision the puzzle was made of: a match and the review's step.
type PuzzleSource struct {
	Match string `json:"match"`
	Step  int    `json:"step"`
}

// AttemptResponse is the answer of POST /api/v1/puzzles/{id}/attempts.
type AttemptResponse struct {
	// Correct says the move is worth as much as the best by the review's values.
	Correct bool       `json:"correct"`
	Move    PuzzleMove `json:"move"`
	Best    PuzzleMove `json:"best"`
	Played  PuzzleMove `json:"played"`
	// Loss is what the source's move lost against the best, in points.
	Loss    float64        `json:"loss"`
	Options []PuzzleOption `json:"options"`
	Source  PuzzleSource   `json:"source"`
	// Rated says this attempt moved the ratings: the caller's first at this puzzle, with a
	// key, at a puzzle not from its own matches.
	Rated bool `json:"rated"`
	// Rating is the puzzle's displayed puzzle rating as the attempt found it (a rated attempt
	// moves it for the next solver).
	Rating int `json:"rating"`
	// Solver is the caller's puzzle rating after the attempt; only with a key.
	Solver *PuzzleSolver `json:"solver,omitempty"`
}

// OwnPuzzle is a puzzle of the player's own decision, with its answer and its source.
type OwnPuzzle struct {
	Puzzle
	Source   PuzzleSource   `json:"source"`
	Played   PuzzleMove     `json:"played"`
	Best     PuzzleMove     `json:"best"`
	Loss     float64        `json:"loss"`
	Options  []PuzzleOption `json:"options"`
	Attempts int            `json:"attempts"`
	Solved   int            `json:"solved"`
}

// PlayerPuzzlesResponse is the answer of GET /api/v1/players/{id}/puzzles.
type PlayerPuzzlesResponse struct {
	Puzzles []OwnPuzzle `json:"puzzles"`
}

func toPuzzleMove(m puzzles.Move) PuzzleMove {
	return PuzzleMove{Action: m.Action, Tile: m.Tile, End: m.End}
}

func toPuzzle(p puzzles.Puzzle) Puzzle {
	pos := p.Position
	out := Puzzle{ID: p.ID, Rating: puzzles.Displayed(p.Rating), LegalMoves: []PuzzleMove{}, Position: PuzzlePosition{
		Seat: pos.Seat, Players: pos.Players, Partnerships: pos.Partnerships, Target: pos.Target, Scores: pos.Scores,
		HandNumber: pos.HandNumber, Hand: pos.Hand, Line: pos.Line, HandSizes: pos.HandSizes, Boneyard: pos.Boneyard,
		History: []PuzzleStep{},
	}}
	for _, h := range pos.History {
		out.Position.History = append(out.Position.History, PuzzleStep{Seat: h.Seat, Action: h.Action, Tile: h.Tile, End: h.End, Count: h.Count})
	}
	for _, m := range pos.LegalMoves {
		out.LegalMoves = append(out.LegalMoves, toPuzzleMove(m))
	}
	return out
}

func toPuzzleOptions(p puzzles.Puzzle) []PuzzleOption {
	out := make([]PuzzleOption, 0, len(p.Options))
	for _, o := range p.Options {
		out = append(out, PuzzleOption{Move: toPuzzleMove(o.Move), Value: o.Value, Played: o.Move == p.Played, Best: o.Move == p.Best})
	}
	return out
}

func toPuzzleSolver(sv puzzles.Solver) *PuzzleSolver {
	return &PuzzleSolver{Rating: puzzles.Displayed(sv.Rating), Mu: sv.Rating.Mu, Sigma: sv.Rating.Sigma, Attempts: sv.Attempts, Solved: sv.Solved}
}

func toOwnPuzzle(p puzzles.Puzzle) OwnPuzzle {
	return OwnPuzzle{
		Puzzle: toPuzzle(p), Source: PuzzleSource{Match: p.Match, Step: p.Step}, Played: toPuzzleMove(p.Played),
		Best: toPuzzleMove(p.Best), Loss: p.Loss, Options: toPuzzleOptions(p), Attempts: p.Attempts, Solved: p.Solved,
	}
}
