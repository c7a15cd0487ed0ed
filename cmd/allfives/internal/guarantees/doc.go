// Package guarantees holds the guarantee suite (docs/design.md, "The
// guarantee suite"): its tests run the real server, wired by
// cmd/allfives/internal/server exactly as `allfives serve` wires it (every feature on; a fake
// clock, fixed seeds, short intervals and a small review budget injected), on SQLite and on
// PostgreSQL. They take every route from the router itself, make every kind of match the
// design lists, hold every credential a client can send, and on every answer assert the
// promises I1-I5: no hidden tile shown, sealed rounds answer one 409 and show nothing
// elsewhere, every export verifies with the `verify` and `tournament` commands' own code, no
// seed published while a match dealt from it is played, and no 5xx but a documented 503.
//
// The package has no code outside its tests: this file is what `go list` sees of it.
package guarantees
