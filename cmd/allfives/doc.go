// Command allfives is the All Fives referee and its tools. Its commands are serve (the HTTP
// API, the default), migrate (apply the database migrations), check (SQLite's integrity check
// and the audit of every stored match), simulate (in-process tournaments between bots),
// replay (a match's record as text), verify (the offline check of a match's JSON export),
// bench (load a running server over HTTP), review (a finished match's export judged
// offline, docs/review.md), ratings (every rating rebuilt from the logs, docs/ratings.md), tournament (a tournament's
// standings recomputed offline from its exports, docs/tournaments.md), engine (the reference
// engine, a bot behind the engine protocol, docs/engine.md) and connect (a player's matches
// played through an engine);
// `allfives help` lists them and `allfives <command>
// -h` gives a command's flags. main only wires the process to run, which tests call directly.
package main
