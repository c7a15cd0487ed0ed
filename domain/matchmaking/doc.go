// Package matchmaking is the pairing rule of Play now (docs/matchmaking.md): given the seeks
// searching at one moment, each with its player's rating in the seek's format and the time it
// began, it decides which seeks sit together, in which seats, and which get bots. It is pure:
// standard library only, no clock of its own, no store; the same seeks at the same moment
// always give the same pairings.
//
// A seek's window is the rating gap it accepts: Rule.Window at first, widening by
// Rule.Growth per second of waiting, up to Rule.MaxWindow. A table of humans is formed only
// when its spread (highest rating minus lowest) is within the window of every seek at it.
// After Rule.BotAfter a seek that found no table fills the rest of its seats with the bots
// whose ratings are nearest its own.
package matchmaking
