package bot

import (
	"fmt"
	"math"
	"testing"

	"github.com/allfives/allfives/domain"
)

// This file is the duel harness's variance-reduced estimate of the first player's win rate
// (docs/bots.md, "A cheaper measurement"): each match's result less the luck of its deals
// (luck_test.go), averaged per deal sequence over both seatings, then over the sequences. It
// is set beside the plain duplicate count on the same matches, with both standard errors.

// matchRecord is one match of a duel, for the first player: the deal sequence, 1 for a win,
// and the luck of its deals.
type matchRecord struct {
	deal int
	won  int
	luck float64
}

// eventsLuck is the luck to seat 0 of the deals among events, dealt in m's present state.
func eventsLuck(m *domain.Match, seed domain.Seed, events []domain.Event) float64 {
	luck := 0.0
	for _, e := range events {
		if d, ok := e.Data.(domain.HandStarted); ok {
			luck += dealLuck(m, seed, d)
		}
	}
	return luck
}

// duelEstimate is what the records say of the first player's win rate. The plain estimate is
// the share of matches won and the corrected one the share less the mean luck; each standard
// error is over deal sequences (a sequence's two seatings are one draw), so the two are
// comparable, and ratio is the plain estimate's variance over the corrected one's: the
// factor by which the corrected estimate needs fewer matches for the same error. drift is
// the mean luck over its standard error: the two estimates differ by the mean luck, which
// has expected value zero, so |drift| stays small when the luck term is unbiased. fit is the
// multiple of the luck that would have taken the most variance off these matches (1 is
// what is used).
type duelEstimate struct {
	plain, plainSE float64
	aivat, aivatSE float64
	ratio, drift   float64
	fit            float64
	sequences      int
}

// estimate reduces r's records to a duelEstimate.
func (r duelResult) estimate() duelEstimate {
	type pair struct {
		won, luck float64
		n         int
	}
	byDeal := map[int]*pair{}
	for _, m := range r.played {
		p := byDeal[m.deal]
		if p == nil {
			p = &pair{}
			byDeal[m.deal] = p
		}
		p.won += float64(m.won)
		p.luck += m.luck
		p.n++
	}
	var y, l []float64
	for _, p := range byDeal {
		y = append(y, p.won/float64(p.n))
		l = append(l, p.luck/float64(p.n))
	}
	z := make([]float64, len(y))
	for i := range y {
		z[i] = y[i] - l[i]
	}
	e := duelEstimate{sequences: len(y)}
	e.plain, e.plainSE = meanSE(y)
	e.aivat, e.aivatSE = meanSE(z)
	lm, lse := meanSE(l)
	if lse > 0 {
		e.drift = lm / lse
	}
	if e.aivatSE > 0 {
		e.ratio = (e.plainSE * e.plainSE) / (e.aivatSE * e.aivatSE)
	}
	if vl := variance(l); vl > 0 {
		e.fit = covariance(y, l) / vl
	}
	return e
}

// String is the estimate as the benchmarks log it, rates in percent with 95% intervals.
func (e duelEstimate) String() string {
	return fmt.Sprintf("%d sequences: plain %.1f%% ± %.1f, luck-corrected %.1f%% ± %.1f (95%%), variance ratio %.2f, mean luck %.1f standard errors from 0, best multiple of the luck %.2f",
		e.sequences, 100*e.plain, 196*e.plainSE, 100*e.aivat, 196*e.aivatSE, e.ratio, e.drift, e.fit)
}

// reportEstimate puts the corrected estimate on the benchmark's line and both in its log.
func (r duelResult) reportEstimate(b *testing.B) {
	e := r.estimate()
	b.ReportMetric(100*e.aivat, "aivat%")
	b.ReportMetric(196*e.aivatSE, "aivat±%")
	b.ReportMetric(e.ratio, "var-ratio")
	b.Logf("estimate: %s", e)
}

// meanSE is the mean of xs and its standard error.
func meanSE(xs []float64) (mean, se float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	return mean, math.Sqrt(variance(xs) / float64(len(xs)))
}

// variance is the sample variance of xs.
func variance(xs []float64) float64 { return covariance(xs, xs) }

// covariance is the sample covariance of xs and ys, of the same length.
func covariance(xs, ys []float64) float64 {
	n := float64(len(xs))
	if n < 2 {
		return 0
	}
	var sx, sy, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxy += xs[i] * ys[i]
	}
	return (sxy - sx*sy/n) / (n - 1)
}

// TestLuckCancelsInAMirror: a player against itself plays each deal sequence's two matches
// alike from the other seat, so each pair's lucks cancel and both estimates are exactly one
// half.
func TestLuckCancelsInAMirror(t *testing.T) {
	g := NewGreedy()
	e := duel(t, "luck-mirror", g, g, 6).estimate()
	if e.plain != 0.5 || math.Abs(e.aivat-0.5) > 1e-9 {
		t.Fatalf("greedy against itself: %s, want one half both ways", e)
	}
}

// TestLuckIsUnbiased checks the luck term on players far apart: the mean luck over the
// matches lies within three standard errors of zero, so the corrected estimate agrees with
// the plain count, and the luck is not constant (it does vary with the deals).
func TestLuckIsUnbiased(t *testing.T) {
	r := duel(t, "luck-unbiased", NewGreedy(), NewRandom(1), 40)
	e := r.estimate()
	if math.Abs(e.drift) > 3 {
		t.Fatalf("greedy against random: %s: the mean luck is far from zero", e)
	}
	var l []float64
	for _, m := range r.played {
		l = append(l, m.luck)
	}
	if variance(l) < 1e-4 {
		t.Fatalf("the luck hardly varies over %d matches: %v", len(l), variance(l))
	}
	t.Logf("greedy against random: %s", e)
}
