package analysis

import (
	"context"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// Explore (docs/review.md, "Explore"): a decision's options, each valued by the review's own
// judge from what the seat knew then, so that the values are the review's, to the point.

// Exploration is one decision's options: Step is the event the decision made (the review's
// seq), Seat the seat that made it.
type Exploration struct {
	Step    int      `json:"step"`
	Seat    int      `json:"seat"`
	Options []Option `json:"options"`
}

// Option is one legal move and its value for the seat's side, in points; Played marks the
// move made, Best the review's best (the played move when it ties).
type Option struct {
	Move   Move    `json:"move"`
	Value  float64 `json:"value"`
	Played bool    `json:"played"`
	Best   bool    `json:"best"`
}

// ExplorationOf is the options of a judged decision, as a stored review holds them.
func ExplorationOf(d Decision) Exploration {
	x := Exploration{Step: d.Seq, Seat: d.Seat, Options: make([]Option, len(d.Candidates))}
	for i, c := range d.Candidates {
		x.Options[i] = Option{Move: c.Move, Value: c.Value, Played: c.Move == d.Played, Best: c.Move == d.Best}
	}
	return x
}

// errFound stops the walk once the decision is judged.
var errFound = errors.New("found")

// Explore judges the one decision of a finished match's log that event step made, as Review
// judges it (the same seeds, the same budgets), without hindsight or par. A step outside the
// log is domain.ErrInvalid; an event that is not a decision domain.ErrNotADecision.
func Explore(ctx context.Context, events []domain.Event, step int, opts Options) (Exploration, error) {
	opts = opts.withDefaults()
	g, err := readGame(events)
	if err != nil {
		return Exploration{}, err
	}
	if step < 1 || step > len(events) {
		return Exploration{}, domain.Invalidf("step must be an integer from 1 to the match's version %d, got %d", len(events), step)
	}
	var found Exploration
	err = walk(g, func(p point) error {
		switch {
		case p.seq < step:
			return nil
		case p.seq > step:
			return fmt.Errorf("%w: event %d is a %s", domain.ErrNotADecision, step, events[step-1].Type)
		}
		d, err := value(ctx, g, p, opts)
		if err != nil {
			return err
		}
		found = ExplorationOf(d)
		return errFound
	})
	switch {
	case errors.Is(err, errFound):
		return found, nil
	case err != nil:
		return Exploration{}, err
	}
	return Exploration{}, fmt.Errorf("%w: event %d is a %s", domain.ErrNotADecision, step, events[step-1].Type)
}
