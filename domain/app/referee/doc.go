// Package referee is the application layer: the MatchService that creates matches,
// authenticates seats, runs moves and computer players' turns, and reads, replays, audits and
// exports matches as each viewer may see them. It owns its ports (EventStore, Strategy, Clock),
// the match cache and the watchers of live streams (docs/design.md, "The flow of one move").
package referee
