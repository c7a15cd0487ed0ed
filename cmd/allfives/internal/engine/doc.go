// Package engine is the engine protocol of docs/engine.md from both of its sides: the line
// format the connector and an engine exchange over the engine's stdin and stdout, the
// reference engine (`allfives engine --bot <strategy>`: the project's bots behind the
// protocol, building their seat's view from the event lines), and Process, the connector's
// handle on one running engine.
//
// The reference engine plays as the bot plays inside the server: Seat folds the events its
// seat reads into the same domain.SeatView the referee hands a bot, so a bot seeded alike
// chooses the same move through the protocol as in process.
package engine
