package domain

import (
	"context"
	"time"
)

// Strategy is a computer player: the bots implement it and the referee asks it for a seat's
// move. It sees only its seat's view.
type Strategy interface {
	Choose(ctx context.Context, view SeatView) (Move, error)
}

// Paced is what a Strategy also implements when how long it takes to decide depends on the
// position: its time would tell a human timing their own requests something of the bot's
// hidden hand (whether it had a choice, how many tiles it holds). MinDecision is a floor the
// strategy declares: while a human sits at the match, the referee holds each of its decisions
// to at least that long, so decisions faster than the floor all take the same time
// (docs/api-matches.md, "Timing"). A floor of 0 or less asks for nothing. Strategies that decide in
// microseconds whatever they hold need not implement it.
type Paced interface {
	MinDecision() time.Duration
}
