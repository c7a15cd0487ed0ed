// Package ratings is the application layer of ratings and leaderboards (docs/ratings.md,
// "The projection"): which matches are rated and what their logs say of them (ResultOf), one
// match's update of its players' standings (Rate, over domain/openskill's model), the projection
// that rates finished matches exactly once in the order they ended (Projector), the rebuild
// that computes every rating again from the logs alone (Rebuild), and the reads the API
// serves: a player's ratings and history, the leaderboards and a match's changes (Service).
//
// Like domain, it speaks no HTTP or SQL: the store is the port Store, which
// repository/sqlite and repository/postgres implement; the logs are read through LogReader,
// which every event store implements.
package ratings
