// Package domain is the game of All Fives (Muggins) and nothing else: tiles, the line, scoring,
// the deal, the events, the event-sourced Match aggregate (Decide returns events, Apply folds
// them), the views each viewer may see, legal moves, the domain's errors, and Strategy, the
// interface the computer players implement. It imports nothing but the standard library and
// says nothing of HTTP, SQL or caches (docs/design.md, "Layers").
package domain
