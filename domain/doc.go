// Package domain is the game of All Fives (Muggins) and nothing else: tiles, the line, scoring,
// the deal, the events, the event-sourced Match aggregate (Decide returns events, Apply folds
// them), the views each viewer may see, legal moves, the game's errors, and Strategy, the
// interface the computer players implement. It imports nothing but the standard library and
// says nothing of HTTP, SQL or caches (docs/design.md, "Layers").
//
// Its errors are the game's only: the rules, the moves, the seats, the match's lifecycle and
// its seal. The error type and its constructor, NewError, are exported so that every other
// owner declares its own codes beside the code that raises them (docs/design.md, "Errors").
package domain
