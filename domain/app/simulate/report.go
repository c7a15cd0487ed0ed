package simulate

import (
	"math"
	"slices"
	"strings"
	"time"
)

// Report is what a simulation showed.
type Report struct {
	Config   Config
	Matches  int // matches played
	Deals    int // deal sequences
	Seatings int // seatings per deal sequence
	Workers  int
	Elapsed  time.Duration
	Rows     []*Row // one per strategy, in the order of the lineup
	// Sweeps counts, per strategy, the deal sequences it won in every seating (duplicate only).
	Sweeps map[string]int
	wins   map[int]map[string]int // deal -> strategy -> seatings won, for Sweeps
}

// Row is one strategy's record. A side counts once per match: in a lineup where a strategy
// holds two sides (three players, say), it plays two entries per match.
type Row struct {
	Strategy string
	Matches  int   // entries: sides this strategy played, over all matches
	Wins     int   // entries that won their match
	Hands    int   // hands played over all its entries
	Points   int   // points its sides scored
	Margin   int   // sum over entries of (own score - best other side's score)
	Choices  []int // duration in ns of each decision with more than one legal move
}

// WinRate is Wins / Matches.
func (r *Row) WinRate() float64 { return float64(r.Wins) / float64(max(r.Matches, 1)) }

// Interval is the 95% Wilson score interval of the win rate.
func (r *Row) Interval() (lo, hi float64) { return Wilson(r.Wins, r.Matches, 1.959964) }

// PointsPerHand is the mean points its side scored per hand.
func (r *Row) PointsPerHand() float64 { return float64(r.Points) / float64(max(r.Hands, 1)) }

// MeanMargin is the mean final margin over the best other side.
func (r *Row) MeanMargin() float64 { return float64(r.Margin) / float64(max(r.Matches, 1)) }

// ChoiceQuantile is the q-quantile (0..1) of the decision times; 0 when it never had a choice.
func (r *Row) ChoiceQuantile(q float64) time.Duration {
	if len(r.Choices) == 0 {
		return 0
	}
	return time.Duration(r.Choices[int(q*float64(len(r.Choices)-1)+0.5)])
}

// Wilson is the Wilson score interval for k successes in n trials at normal quantile z.
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(mid-half, 0), min(mid+half, 1)
}

func newReport(c Config, seatings, workers int) *Report {
	r := &Report{Config: c, Seatings: seatings, Deals: c.Deals(), Workers: workers, Sweeps: map[string]int{}, wins: map[int]map[string]int{}}
	for _, s := range c.Seatings() {
		for _, label := range sideLabels(c, s) {
			r.row(label)
		}
	}
	return r
}

func (r *Report) row(label string) *Row {
	for _, row := range r.Rows {
		if row.Strategy == label {
			return row
		}
	}
	row := &Row{Strategy: label}
	r.Rows = append(r.Rows, row)
	return row
}

// sideLabels names each side by its strategy, or by its strategies sorted and joined with "+"
// when partners play differently (so "expert+greedy" is one row whichever seat is which).
func sideLabels(c Config, seating []string) []string {
	sides := c.Players
	if c.Partnerships {
		sides = 2
	}
	labels := make([][]string, sides)
	for seat, name := range seating {
		side := seat % sides
		if !slices.Contains(labels[side], name) {
			labels[side] = append(labels[side], name)
		}
	}
	out := make([]string, sides)
	for i, l := range labels {
		slices.Sort(l)
		out[i] = strings.Join(l, "+")
	}
	return out
}

// add folds one match into the rows.
func (r *Report) add(o result) {
	r.Matches++
	labels := sideLabels(r.Config, o.seating)
	for side, label := range labels {
		row := r.row(label)
		best := math.MinInt
		for other, s := range o.scores {
			if other != side {
				best = max(best, s)
			}
		}
		row.Matches++
		row.Hands += o.hands
		row.Points += o.scores[side]
		row.Margin += o.scores[side] - best
		if side == o.winner {
			row.Wins++
		}
	}
	if r.wins[o.deal] == nil {
		r.wins[o.deal] = map[string]int{}
	}
	r.wins[o.deal][labels[o.winner]]++
	if r.wins[o.deal][labels[o.winner]] == r.Seatings {
		r.Sweeps[labels[o.winner]]++
	}
}

func (r *Report) addTimings(t map[string][]uint32) {
	for name, ds := range t {
		i := slices.IndexFunc(r.Rows, func(row *Row) bool { return row.Strategy == name })
		if i < 0 {
			continue // a strategy that only plays beside a different partner has no row
		}
		row := r.Rows[i]
		for _, d := range ds {
			row.Choices = append(row.Choices, int(d))
		}
	}
	for _, row := range r.Rows {
		slices.Sort(row.Choices)
	}
}
