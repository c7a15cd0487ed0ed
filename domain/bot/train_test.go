package bot

import (
	"context"
	"crypto/sha256"
	"fmt"
	"go/format"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// BenchmarkTrainLearned fits the learned row's model (learned_test.go) and writes it to
// learnedweights_test.go. It is the training command, kept out of the normal test run:
//
//	nice -n 19 go test ./domain/bot -run '^$' -bench TrainLearned -benchtime 1x -cpu 1
//
// It plays trainMatches two-player matches of level-7 against pimc on the deals named
// trainDeals; at each position where the row applies, it records each play's features, the
// released expert's values and the oracle's (the expert's study told the opponent's hand).
// The weights are the least-squares fit of the oracle's advantage of a play (its value less
// the mean of the position's plays, in points) on the features' advantages, over the even
// matches; the blend is the fit of the oracle's advantage on the expert's and the model's,
// over the odd ones. Everything is seeded, so the run writes the same file again.
func BenchmarkTrainLearned(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var fit, blend []trainPosition
		for n := range trainMatches {
			ps := trainPositions(b, n)
			if n%2 == 0 {
				fit = append(fit, ps...)
			} else {
				blend = append(blend, ps...)
			}
		}
		m := learnedModel{w: fitWeights(fit)}
		m.mc, m.model = fitBlend(&m, blend)
		b.ReportMetric(float64(len(fit)+len(blend)), "positions")
		reportRegret(b, &m, blend)
		if err := os.WriteFile("learnedweights_test.go", m.source(len(fit)+len(blend)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// trainMatches and trainDeals name the training matches.
const (
	trainMatches = 300
	trainDeals   = "learned-train/"
)

// trainPosition is one position's plays: features, the expert's and the oracle's advantages
// in points.
type trainPosition struct {
	f          [][nFeatures]float64
	mc, oracle []float64
}

// trainPositions plays training match n and returns its labelled positions.
func trainPositions(tb testing.TB, n int) []trainPosition {
	var out []trainPosition
	x := NewExpert(1, DefaultRollouts)
	players := []domain.Strategy{NewLevel(7, 7, DefaultRollouts), NewPIMC(7, DefaultPlayouts)}
	bottest.Play(tb, bottest.Spec(bottest.Shape{Players: 2}, 0), bottest.Seed(fmt.Sprint(trainDeals, n)), players, func(m *domain.Match, hands domain.HandLog) bool {
		v := m.SeatView(m.Turn(), hands)
		k := read(v)
		if !learnedApplies(v, k) {
			return true
		}
		opp := maskOf(m.SeatView(1-v.Seat, hands).Hand)
		out = append(out, label(x, v, k, opp))
		return true
	})
	return out
}

// label is v's plays as trainPosition: the expert's values, and the oracle's with the
// opponent's hand opp in every deal.
func label(x *Expert, v domain.SeatView, k *knowledge, opp uint32) trainPosition {
	s, _ := x.prepare(v, k)
	mc, _, _ := x.search(context.Background(), v, k, &s)
	o, _ := x.prepare(v, k)
	rest := k.unseen &^ opp
	o.deal = func(r *rng, g *sim) float64 {
		g.hands[1-v.Seat] = opp
		g.shuffleBone(r, rest)
		return 1
	}
	or, _, _ := x.search(context.Background(), v, k, &o)
	slope := equitySlope(v.Scores, v.Table.SideOf(v.Seat), v.Target)
	p := trainPosition{mc: advantage(mc), oracle: advantage(or)}
	for i := range p.mc {
		p.mc[i] /= slope
		p.oracle[i] /= slope
	}
	odds := oppOdds(k, 1-v.Seat)
	for _, c := range s.cands {
		p.f = append(p.f, playFeatures(&s.base, v.Seat, k.unseen, &odds, v.HandSizes[1-v.Seat], v.Boneyard, c.tile, c.end))
	}
	return p
}

// centred is a position's features less their mean over its plays.
func (p trainPosition) centred() [][nFeatures]float64 {
	out := make([][nFeatures]float64, len(p.f))
	for j := range nFeatures {
		col := make([]float64, len(p.f))
		for i := range p.f {
			col[i] = p.f[i][j]
		}
		for i, c := range advantage(col) {
			out[i][j] = c
		}
	}
	return out
}

// fitWeights is the ridge least-squares fit of the oracle's advantages on the centred features.
func fitWeights(ps []trainPosition) [nFeatures]float64 {
	var a [nFeatures][nFeatures + 1]float64
	for _, p := range ps {
		for i, f := range p.centred() {
			for r := range nFeatures {
				for c := range nFeatures {
					a[r][c] += f[r] * f[c]
				}
				a[r][nFeatures] += f[r] * p.oracle[i]
			}
		}
	}
	for r := range nFeatures {
		a[r][r] += 1 // a little ridge, for features that never vary
	}
	return solve(a)
}

// solve solves the normal equations a by Gaussian elimination with partial pivoting.
func solve(a [nFeatures][nFeatures + 1]float64) [nFeatures]float64 {
	for c := range nFeatures {
		p := c
		for r := c + 1; r < nFeatures; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < nFeatures; r++ {
			k := a[r][c] / a[c][c]
			for j := c; j <= nFeatures; j++ {
				a[r][j] -= k * a[c][j]
			}
		}
	}
	var w [nFeatures]float64
	for r := nFeatures - 1; r >= 0; r-- {
		s := a[r][nFeatures]
		for j := r + 1; j < nFeatures; j++ {
			s -= a[r][j] * w[j]
		}
		w[r] = s / a[r][r]
	}
	return w
}

// predict is the model's advantage of each of p's plays, in points.
func (m *learnedModel) predict(p trainPosition) []float64 {
	out := make([]float64, len(p.f))
	for i, f := range p.centred() {
		for j := range f {
			out[i] += m.w[j] * f[j]
		}
	}
	return out
}

// fitBlend is the least-squares fit, without intercept, of the oracle's advantages on the
// expert's and the model's.
func fitBlend(m *learnedModel, ps []trainPosition) (mc, model float64) {
	var saa, sab, sbb, say, sby float64
	for _, p := range ps {
		pred := m.predict(p)
		for i := range pred {
			a, b, y := p.mc[i], pred[i], p.oracle[i]
			saa, sab, sbb, say, sby = saa+a*a, sab+a*b, sbb+b*b, say+a*y, sby+b*y
		}
	}
	det := saa*sbb - sab*sab
	return (say*sbb - sby*sab) / det, (saa*sby - sab*say) / det
}

// source is the generated file holding m.
func (m *learnedModel) source(positions int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by BenchmarkTrainLearned (train_test.go); DO NOT EDIT.\n\npackage bot\n\n")
	fmt.Fprintf(&b, "// trainedModel was fitted on %d positions of %d matches (%q 0 to %d).\n", positions, trainMatches, trainDeals, trainMatches-1)
	fmt.Fprintf(&b, "var trainedModel = learnedModel{\n\tw: [nFeatures]float64{")
	for i, w := range m.w {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%.17g", w)
	}
	fmt.Fprintf(&b, "},\n\tmc: %.17g, model: %.17g,\n}\n\n", m.mc, m.model)
	fmt.Fprintf(&b, "// trainedChecksum is trainedModel's checksum (TestTrainedModelChecksum).\nconst trainedChecksum = %q\n", m.checksum())
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic(err)
	}
	return src
}

// checksum is the SHA-256 of m's numbers, written out exactly.
func (m *learnedModel) checksum() string {
	h := sha256.New()
	for _, w := range m.w {
		fmt.Fprintf(h, "%.17g\n", w)
	}
	fmt.Fprintf(h, "%.17g\n%.17g\n", m.mc, m.model)
	return fmt.Sprintf("%x", h.Sum(nil))
}

// reportRegret reports, on ps, the oracle's points lost by taking the expert's choice, the
// model's and the blend's rather than the oracle's own.
func reportRegret(b *testing.B, m *learnedModel, ps []trainPosition) {
	var exp, mod, bl float64
	for _, p := range ps {
		pred := m.predict(p)
		mix := make([]float64, len(pred))
		for i := range mix {
			mix[i] = m.mc*p.mc[i] + m.model*pred[i]
		}
		top := p.oracle[best(p.oracle)]
		exp += top - p.oracle[best(p.mc)]
		mod += top - p.oracle[best(pred)]
		bl += top - p.oracle[best(mix)]
	}
	n := float64(max(len(ps), 1))
	b.ReportMetric(exp/n, "expert-regret-pts")
	b.ReportMetric(mod/n, "model-regret-pts")
	b.ReportMetric(bl/n, "blend-regret-pts")
	b.Logf("weights %v, blend expert %.3f model %.3f", m.w, m.mc, m.model)
}
