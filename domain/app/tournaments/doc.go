// Package tournaments is the application service of tournaments (docs/tournaments.md): it
// creates them, takes entries, starts them, pairs each round with the pure engine of
// domain/tournament, creates the round's matches through the referee with every seat bound
// to an entrant, hears the matches end, and keeps each tournament's hash-chained log in its
// Store. Duplicate rounds draw one secret seed, committed when the round starts and revealed
// when its last match ends; until then the referee seals the round's matches (Sealer).
package tournaments
