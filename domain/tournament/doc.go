// Package tournament is the pure engine of tournaments (docs/tournaments.md): the spec of a
// tournament, its systems (each one file behind Rules: Swiss pairing, the round robin's
// circle method), the points of a table's result and of duplicate scoring, standings with
// their tie-breaks, and the tournament's own hash-chained log with the audit that recomputes
// it. Standard library only: no HTTP, SQL or stores; the service in domain/app/tournaments
// drives it.
package tournament
