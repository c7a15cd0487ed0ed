package analysis

import (
	"context"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// ErrNotFinished is returned for a log without match.ended: only a finished match, whose
// hands and seed are open, can be reviewed (docs/review.md).
var ErrNotFinished = errors.New("review: the match has not finished")

// ErrBadLog is returned for a log the domain cannot fold, or whose revealed seed does not
// match the commitment published when the match was created.
var ErrBadLog = errors.New("review: the log is not a valid finished match")

// StatusDone is the only status the engine returns; the API adds "running" while it works.
const StatusDone = "done"

// Result is a finished match's review (docs/review.md): per seat a summary, per real
// decision (more than one legal move) the judgement. The API's JSON mirrors it.
type Result struct {
	Status    string     `json:"status"`
	Method    string     `json:"method"`
	Seats     []Seat     `json:"seats"`
	Decisions []Decision `json:"decisions"`
}

// Seat sums up one seat's decisions, and its side's duplicate par.
type Seat struct {
	Seat     int     `json:"seat"`
	Side     int     `json:"side"`
	Accuracy float64 `json:"accuracy"`  // 0-100, docs/review.md "Accuracy"
	MeanLoss float64 `json:"mean_loss"` // points per judged decision
	Judged   int     `json:"judged"`    // decisions with a choice
	Classes  Classes `json:"classes"`
	// PassedOver counts the decisions where a scoring play was on offer and the seat played
	// one scoring less; PassedOverPoints adds up the points it left (the best on offer less
	// what it scored). Sometimes right: the review's loss says whether it was.
	PassedOver       int `json:"passed_over"`
	PassedOverPoints int `json:"passed_over_points"`
	// Margin is the side's final score over the best opposing side's; ParMargin the mean
	// margin of the expert in every seat over the match's deals; Luck is ParMargin and
	// Skill is Margin - ParMargin.
	Margin    float64 `json:"margin"`
	ParMargin float64 `json:"par_margin"`
	Luck      float64 `json:"luck"`
	Skill     float64 `json:"skill"`
}

// Classes counts a seat's decisions by class.
type Classes struct {
	Best       int `json:"best"`
	Good       int `json:"good"`
	Inaccuracy int `json:"inaccuracy"`
	Mistake    int `json:"mistake"`
	Blunder    int `json:"blunder"`
}

// Decision is the judgement of one real decision. Seq is the event the decision made.
type Decision struct {
	Seq        int         `json:"seq"`
	Seat       int         `json:"seat"`
	Hand       int         `json:"hand"`
	Played     Move        `json:"played"`
	Best       Move        `json:"best"`
	Loss       float64     `json:"loss"`
	Class      Class       `json:"class"`
	Exact      bool        `json:"exact"` // nothing was hidden and the values are exact
	Candidates []Candidate `json:"candidates"`
	Hindsight  Hindsight   `json:"hindsight"`
	passedOver int         // the best points on offer less the points played
}

// Candidate is one legal move and its value for the seat's side, in points.
type Candidate struct {
	Move  Move    `json:"move"`
	Value float64 `json:"value"`
}

// Hindsight is the best move knowing every hand and the boneyard's order, and what the
// played move lost against it by that knowledge.
type Hindsight struct {
	Best Move    `json:"best"`
	Loss float64 `json:"loss"`
}

// Move is a move as legal_moves writes it (docs/api-matches.md, "Moves"): the action, and for a play the
// tile and the end.
type Move struct {
	Action string `json:"action"`
	Tile   string `json:"tile,omitempty"`
	End    string `json:"end,omitempty"`
}

// moveOf writes a legal move.
func moveOf(m domain.LegalMove) Move {
	if m.Action != domain.ActionPlay {
		return Move{Action: m.Action.String()}
	}
	return Move{Action: m.Action.String(), Tile: m.Tile.String(), End: m.End.String()}
}

// Review judges a finished match from its whole event log, as an export carries it: every
// hand open and the seed revealed in match.ended. The answer depends only on the log and
// opts, never on the clock or the machine (docs/review.md, "Determinism").
func Review(ctx context.Context, events []domain.Event, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	g, err := readGame(events)
	if err != nil {
		return nil, err
	}
	res := &Result{Status: StatusDone, Method: opts.Method(), Decisions: []Decision{}}
	err = walk(g, func(p point) error {
		d, err := judge(ctx, g, p, opts)
		if err != nil {
			return err
		}
		res.Decisions = append(res.Decisions, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	par, err := parMargins(ctx, g, opts)
	if err != nil {
		return nil, err
	}
	res.Seats = summarize(g, res.Decisions, par)
	return res, nil
}

// game is what the review needs of the log.
type game struct {
	events  []domain.Event
	created domain.MatchCreated
	ended   domain.MatchEnded
	table   domain.Table
	seed    domain.Seed
}

// readGame checks that the log is a finished match with a seed that keeps its commitment.
func readGame(events []domain.Event) (*game, error) {
	if len(events) == 0 {
		return nil, fmt.Errorf("%w: the log is empty", ErrBadLog)
	}
	created, ok := events[0].Data.(domain.MatchCreated)
	if !ok {
		return nil, fmt.Errorf("%w: it does not open with match.created", ErrBadLog)
	}
	ended, ok := events[len(events)-1].Data.(domain.MatchEnded)
	if !ok {
		return nil, ErrNotFinished
	}
	seed, err := domain.ParseSeed(ended.Seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadLog, err)
	}
	if seed.Commitment() != created.Commitment {
		return nil, fmt.Errorf("%w: the revealed seed does not match the commitment", ErrBadLog)
	}
	table, err := domain.NewTable(len(created.Players), created.Partnerships)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadLog, err)
	}
	return &game{events: events, created: created, ended: ended, table: table, seed: seed}, nil
}

// margin is side's score over the best opposing side's.
func margin(scores []int, side int) int {
	best := -1 << 30
	for s, v := range scores {
		if s != side && v > best {
			best = v
		}
	}
	return scores[side] - best
}
