// Package analysis judges a finished match (docs/review.md): for every decision where the
// seat had a choice, the value of each legal move from what the seat knew then (the expert's
// evaluation, on a bigger budget, exact where nothing was hidden), the loss of the move
// played against the best and its class, and the best move in hindsight; per seat an
// accuracy, the mean loss and the classes; and a duplicate par that splits each side's
// margin into luck and skill.
//
// Review is the whole engine: it takes the match's full event log, as an export carries it,
// and returns a plain value that the API's JSON mirrors. It is pure (the domain and its bots
// only) and deterministic: every random choice is seeded from the match's seed and the
// decision's seq, nothing reads the clock, and it runs on the caller's goroutine.
package analysis
