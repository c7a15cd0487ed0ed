package tournament

// Result is a table's match once it ended: the entrants by seat and, by seat, its side's
// final score.
type Result struct {
	Round  int      `json:"round"`
	Table  int      `json:"table"`
	Match  string   `json:"match"`
	Seats  []string `json:"seats"`
	Scores []int    `json:"scores"`
}

// MatchPoints is what each seat of a table earns in match points (docs/tournaments.md,
// "Points"): a side earns one point for each other side it outscored and half a point for each
// it tied, divided by the number of other sides; so with two sides a win is 1, a loss 0, and
// every table hands out 1 point per side pair's worth, the same to partners.
func MatchPoints(f Format, scores []int) []float64 {
	out := make([]float64, len(scores))
	sides := f.Sides()
	if sides < 2 {
		return out
	}
	for s := range scores {
		var p float64
		for o := range scores {
			if f.SideOf(o) == f.SideOf(s) || !firstOfSide(f, o) {
				continue
			}
			switch {
			case scores[s] > scores[o]:
				p++
			case scores[s] == scores[o]:
				p += 0.5
			}
		}
		out[s] = p / float64(sides-1)
	}
	return out
}

// firstOfSide says whether seat is the lowest seat of its side: the one a side is counted by.
func firstOfSide(f Format, seat int) bool { return f.SideOf(seat) == seat }

// Margins is each seat's margin at a table: its side's score less the mean score of the other
// sides. A table's margins sum to zero over its sides.
func Margins(f Format, scores []int) []float64 {
	out := make([]float64, len(scores))
	sides := f.Sides()
	for s := range scores {
		var others float64
		for o := range scores {
			if f.SideOf(o) != f.SideOf(s) && firstOfSide(f, o) {
				others += float64(scores[o])
			}
		}
		out[s] = float64(scores[s]) - others/float64(sides-1)
	}
	return out
}

// DuplicateScores scores the tables of one duplicate round (docs/tournaments.md, "Duplicate
// scoring"): every table held the same cards seat by seat, so each seat's margin is compared
// with the margins of the same seat at the other tables, and its score is its margin less
// their mean. The scores of the seats that held the same cards sum to zero: the deal's luck
// cancels and what is left is how much better than the field the seat played those cards. A
// seat with no other table to compare with scores its margin. The answer is by table, then
// seat, in the order of results.
func DuplicateScores(f Format, results []Result) [][]float64 {
	margins := make([][]float64, len(results))
	for i, r := range results {
		margins[i] = Margins(f, r.Scores)
	}
	out := make([][]float64, len(results))
	for i, r := range results {
		out[i] = make([]float64, len(r.Scores))
		for s := range r.Scores {
			var sum float64
			n := 0
			for j := range results {
				if j != i && s < len(margins[j]) {
					sum += margins[j][s]
					n++
				}
			}
			out[i][s] = margins[i][s]
			if n > 0 {
				out[i][s] -= sum / float64(n)
			}
		}
	}
	return out
}
