package tournament

import (
	"cmp"
	"math"
	"slices"
)

// Standing is one entrant's line of the standings (docs/tournaments.md, "Standings").
// Points orders the standings: match points, or in a duplicate tournament the sum of the
// duplicate scores. MatchPoints, Buchholz, SonnebornBerger and Wins are the figures the
// tie-breaks read (each system's TieBreaks; StandardTieBreaks takes them in that order after
// Points); entry order breaks what is left, so every rank is one entrant's.
type Standing struct {
	Rank            int     `json:"rank"`
	Entrant         string  `json:"entrant"`
	Points          float64 `json:"points"`
	MatchPoints     float64 `json:"match_points"`
	Wins            int     `json:"wins"`
	Buchholz        float64 `json:"buchholz"`
	SonnebornBerger float64 `json:"sonneborn_berger"`
	Played          int     `json:"played"`
	Byes            int     `json:"byes"`
}

// ByePoints is what a bye earns in match points (a win, as in chess Swiss events); in a
// duplicate tournament a bye scores 0, the field's mean.
const ByePoints = 1.0

// RoundRecord is what standings need of one finished round: its results and its byes.
type RoundRecord struct {
	Results []Result
	Byes    []string
}

// game is one entrant's table in one round, as the tie-breaks see it.
type game struct {
	opponents   []string
	matchPoints float64
}

// A TieBreak is a figure of a standing that orders entrants of equal points: the higher first.
type TieBreak func(Standing) float64

// StandardTieBreaks are the tie-breaks of docs/tournaments.md ("Standings"), in order: match
// points, Buchholz, Sonneborn-Berger, wins.
func StandardTieBreaks() []TieBreak {
	return []TieBreak{
		func(s Standing) float64 { return s.MatchPoints },
		func(s Standing) float64 { return s.Buchholz },
		func(s Standing) float64 { return s.SonnebornBerger },
		func(s Standing) float64 { return float64(s.Wins) },
	}
}

// Standings computes the standings of entrants (in entry order) after rounds, ranked by
// points, then by each of tieBreaks, then in entry order. Buchholz is the sum over an
// entrant's tables of the mean final Points of its opponents there (the seats of the other
// sides; a bye adds nothing); Sonneborn-Berger the sum over its tables of its match points
// there times that mean. Both measure the strength of whom one met; with one opponent a table
// they are chess's.
func Standings(f Format, duplicate bool, entrants []string, rounds []RoundRecord, tieBreaks ...TieBreak) []Standing {
	idx := make(map[string]int, len(entrants))
	rows := make([]Standing, len(entrants))
	for i, id := range entrants {
		idx[id] = i
		rows[i].Entrant = id
	}
	games := make([][]game, len(entrants))
	for _, rd := range rounds {
		var dup [][]float64
		if duplicate {
			dup = DuplicateScores(f, rd.Results)
		}
		for ti, r := range rd.Results {
			mp := MatchPoints(f, r.Scores)
			for s, id := range r.Seats {
				i, ok := idx[id]
				if !ok {
					continue
				}
				row := &rows[i]
				row.Played++
				row.MatchPoints += mp[s]
				if mp[s] == 1 {
					row.Wins++
				}
				if duplicate {
					row.Points += dup[ti][s]
				} else {
					row.Points += mp[s]
				}
				var opp []string
				for o, oid := range r.Seats {
					if f.SideOf(o) != f.SideOf(s) {
						opp = append(opp, oid)
					}
				}
				games[i] = append(games[i], game{opponents: opp, matchPoints: mp[s]})
			}
		}
		for _, id := range rd.Byes {
			if i, ok := idx[id]; ok {
				rows[i].Byes++
				rows[i].MatchPoints += ByePoints
				if !duplicate {
					rows[i].Points += ByePoints
				}
			}
		}
	}
	for i := range rows {
		for _, g := range games[i] {
			var sum float64
			for _, o := range g.opponents {
				sum += rows[idx[o]].Points
			}
			mean := sum / float64(len(g.opponents))
			rows[i].Buchholz += mean
			rows[i].SonnebornBerger += g.matchPoints * mean
		}
	}
	for i := range rows {
		rows[i].Points = tidy(rows[i].Points)
		rows[i].Buchholz = tidy(rows[i].Buchholz)
		rows[i].SonnebornBerger = tidy(rows[i].SonnebornBerger)
		rows[i].MatchPoints = tidy(rows[i].MatchPoints)
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := rows[a], rows[b]
		if c := cmp.Compare(y.Points, x.Points); c != 0 {
			return c
		}
		for _, by := range tieBreaks {
			if c := cmp.Compare(by(y), by(x)); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
	out := make([]Standing, len(rows))
	for r, i := range order {
		out[r] = rows[i]
		out[r].Rank = r + 1
	}
	return out
}

// tidy rounds x to 6 decimals, so that sums of thirds taken in another order compare equal and
// a recomputation offline prints the same figures.
func tidy(x float64) float64 {
	v := math.Round(x*1e6) / 1e6
	if v == 0 {
		return 0 // no -0 in an answer
	}
	return v
}
