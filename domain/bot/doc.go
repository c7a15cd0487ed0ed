// Package bot holds the computer players: strategies that implement domain.Strategy and decide
// from a domain.SeatView alone. A SeatView carries only what its seat may know (its own hand,
// the line, the counts and the public history), so no strategy here can see a hidden tile: the
// types make peeking impossible, and the tests check it.
//
// Every strategy is deterministic: its randomness is derived from the seed it was built with
// and a hash of the view, so the same view always gets the same move. None keeps state between
// calls, so one value may serve any number of matches at once.
package bot
