package bot

import (
	"context"
	"math"
	"math/bits"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// position is a decision of the recorded seat with the opponent's true hand (scratch).
type position struct {
	v   domain.SeatView
	opp uint32
}

type recorder struct {
	mu  *sync.Mutex
	out *[]position
	c   chooser
	opp uint32
}

func (r recorder) seeing(v domain.SeatView) chooser { r.opp = maskOf(v.Hand); return r }

func (r recorder) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	c := v
	c.History = slices.Clone(v.History)
	c.Hand = slices.Clone(v.Hand)
	c.HandSizes = slices.Clone(v.HandSizes)
	c.LegalMoves = slices.Clone(v.LegalMoves)
	c.Scores = slices.Clone(v.Scores)
	r.mu.Lock()
	*r.out = append(*r.out, position{c, r.opp})
	r.mu.Unlock()
	return r.c.Choose(ctx, v)
}

func recordPositions(t *testing.T, deals int) []position {
	var out []position
	rec := recorder{mu: &sync.Mutex{}, out: &out, c: NewExpert(1, DefaultRollouts)}
	duel(t, "iq", rec, &reference{seed: 2, playouts: DefaultRollouts}, deals)
	return out
}

// crossEntropy is the mean cross-entropy, in bits per unseen tile, of the weighted marginals
// of the opponent's hand against the truth.
func crossEntropy(pos []position, model *choiceModel, deals int) (float64, float64) {
	var ce, n, eff float64
	for _, p := range pos {
		k := read(p.v)
		smp := newSampler(k)
		smp.model = model
		deal := smp.deal
		if model == uniformModel {
			deal = uniformDeal(p.v, k.unseen)
		}
		r := viewRNG(7, p.v)
		var sum [nTiles]float64
		var tot, tot2 float64
		opp := 1 - p.v.Seat
		for range deals {
			var g sim
			w := deal(&r, &g)
			tot += w
			tot2 += w * w
			for m := g.hands[opp]; m != 0; m &= m - 1 {
				sum[bits.TrailingZeros32(m)] += w
			}
		}
		if tot == 0 {
			continue
		}
		eff += tot * tot / tot2
		for m := k.unseen; m != 0; m &= m - 1 {
			t := bits.TrailingZeros32(m)
			q := min(max(sum[t]/tot, 0.001), 0.999)
			if p.opp&(1<<t) != 0 {
				ce -= math.Log2(q)
			} else {
				ce -= math.Log2(1 - q)
			}
			n++
		}
	}
	return ce / n, eff / float64(len(pos))
}

func TestInferenceQuality(t *testing.T) {
	if os.Getenv("BOT_IQ") == "" {
		t.Skip("scratch")
	}
	pos := recordPositions(t, 40)
	t.Logf("%d positions", len(pos))
	ce, _ := crossEntropy(pos, uniformModel, 400)
	t.Logf("uniform: %.4f bits/tile", ce)
	for _, beta := range []float64{0, 0.4} {
		var m *choiceModel
		if beta > 0 {
			m = newChoiceModel(beta)
		}
		ce, eff := crossEntropy(pos, m, 400)
		t.Logf("beta %.1f: %.4f bits/tile, eff %.0f", beta, ce, eff)
	}
	for name, w := range map[string][nFeat]float64{"both": softBoth, "ref": softRef, "s6": {0.304, -0.177, 0.032, 1.107, 0.040, 0.205}} {
		ce, eff := crossEntropy(pos, &choiceModel{soft: &w}, 400)
		t.Logf("soft %s: %.4f bits/tile, eff %.0f", name, ce, eff)
	}
}

var softBoth = [nFeat]float64{0.29606288223308835, -0.09122140913719556, 0.043584665514471696, 0.7902577427758697, 0.04929963367616388, 0.16708399238194976, -0.45081662890137864, -0.02135429405188367, -0.20229868129396977, -0.20223903642310243, 0.03142016459640942}
var softRef = [nFeat]float64{0.3053972055336302, -0.09638781099085798, 0.039353224418877855, 0.69581737565086, 0.04092735234687008, 0.060959513198966225, -0.5592312171333181, -0.06321752825549502, -0.11114387515727756, -0.15501436166397048, 0.14825398304997897}

func TestSoftCost(t *testing.T) {
	if os.Getenv("BOT_IQ") == "" {
		t.Skip("scratch")
	}
	pos := recordPositions(t, 4)
	for name, o := range map[string]expertOpts{"released": released, "soft": withSoft(released, softBoth)} {
		x := &Expert{seed: 1, rollouts: DefaultRollouts, opts: o}
		var ds []time.Duration
		for _, p := range pos {
			st := time.Now()
			x.Choose(context.Background(), p.v)
			ds = append(ds, time.Since(st))
		}
		slices.Sort(ds)
		t.Logf("%s: %d decisions, p50 %v p90 %v p99 %v", name, len(ds), ds[len(ds)/2], ds[len(ds)*9/10], ds[len(ds)*99/100])
	}
}

var uniformModel = &choiceModel{}

func TestISCost(t *testing.T) {
	if os.Getenv("BOT_IQ") == "" {
		t.Skip("scratch")
	}
	pos := recordPositions(t, 3)
	for name, o := range map[string]expertOpts{"released": released, "is": withIS(released, 0.1)} {
		x := &Expert{seed: 1, rollouts: DefaultRollouts, opts: o}
		var ds []time.Duration
		same := 0
		for _, p := range pos {
			st := time.Now()
			mv, _ := x.Choose(context.Background(), p.v)
			ds = append(ds, time.Since(st))
			rm, _ := NewExpert(1, DefaultRollouts).Choose(context.Background(), p.v)
			if rm == mv {
				same++
			}
		}
		slices.Sort(ds)
		t.Logf("%s: %d decisions, same %d, p50 %v p90 %v p99 %v", name, len(ds), same, ds[len(ds)/2], ds[len(ds)*9/10], ds[len(ds)*99/100])
	}
}
