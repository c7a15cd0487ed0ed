package analysis

// The puzzle rule (docs/puzzles.md, "The rule"; docs/decisions/018-puzzles-from-clear-mistakes.md): a judged
// decision is a puzzle when the move played lost at least PuzzleMinLoss points against the
// best, and the best beat every other option by at least PuzzleMinMargin. The first makes it
// worth showing (a mistake or a blunder by the review's classes); the second makes it clear:
// one move stands out, so a solver who finds it is right by more than the judgement's noise.
// Both were chosen on 100 reviewed bot matches (BenchmarkPuzzleRule).
const (
	PuzzleMinLoss   = 8.0
	PuzzleMinMargin = 5.0
)

// PuzzleRule is a rule with its two numbers, so that the counts of other numbers can be
// compared (BenchmarkPuzzleRule); the puzzles are made by DefaultPuzzleRule.
type PuzzleRule struct {
	MinLoss   float64 // the least loss of the move played, in points
	MinMargin float64 // the least lead of the best option over the second, in points
}

// DefaultPuzzleRule is the rule the puzzles are made by.
var DefaultPuzzleRule = PuzzleRule{MinLoss: PuzzleMinLoss, MinMargin: PuzzleMinMargin}

// Puzzle reports whether d is a puzzle by the rule. The loss is the review's own (values
// rounded as the review shows them), so whoever reads the review can check it.
func (r PuzzleRule) Puzzle(d Decision) bool {
	if len(d.Candidates) < 2 || d.Loss < r.MinLoss {
		return false
	}
	best, second := TopTwo(d)
	return round2(best-second) >= r.MinMargin
}

// TopTwo is the best candidate's value and the second best's (the best's again when two tie
// for best).
func TopTwo(d Decision) (best, second float64) {
	best, second = -1e18, -1e18
	for _, c := range d.Candidates {
		switch {
		case c.Value > best:
			best, second = c.Value, best
		case c.Value > second:
			second = c.Value
		}
	}
	return best, second
}
