package bot

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain"
)

// decisionRec is one recorded choice among plays.
type decisionRec struct {
	feats  [][nFeat]float64
	chosen int
	l      openEnds
	hand   uint32
	line   uint32
	plays  [][2]int
}

type moveRecorder struct {
	mu  *sync.Mutex
	out *[]decisionRec
	c   chooser
}

func (r moveRecorder) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	mv, err := r.c.Choose(ctx, v)
	if err != nil || mv.Action != domain.ActionPlay {
		return mv, err
	}
	hand := maskOf(v.Hand)
	line := maskOf(lineTiles(v.Line))
	g := seatSim(v, hand, v.Target)
	l := g.ends()
	var d decisionRec
	d.chosen = -1
	for _, lm := range v.LegalMoves {
		if lm.Action != domain.ActionPlay {
			continue
		}
		e := 0
		if lm.End == domain.Right {
			e = 1
		}
		if lm.Tile == mv.Tile && lm.End == mv.End {
			d.chosen = len(d.feats)
		}
		d.feats = append(d.feats, playFeatures(l, hand, line, lm.Tile.Index(), e))
		d.plays = append(d.plays, [2]int{lm.Tile.Index(), e})
		d.l, d.hand, d.line = l, hand, line
	}
	if len(d.feats) > 1 && d.chosen >= 0 {
		r.mu.Lock()
		*r.out = append(*r.out, d)
		r.mu.Unlock()
	}
	return mv, err
}

func logLik(data []decisionRec, w [nFeat]float64, grad *[nFeat]float64) float64 {
	ll := 0.0
	for _, d := range data {
		mx := -1e300
		s := make([]float64, len(d.feats))
		for i, f := range d.feats {
			for j := range f {
				s[i] += w[j] * f[j]
			}
			mx = max(mx, s[i])
		}
		z := 0.0
		for i := range s {
			s[i] = math.Exp(s[i] - mx)
			z += s[i]
		}
		ll += math.Log(s[d.chosen] / z)
		if grad != nil {
			for j := range nFeat {
				e := 0.0
				for i, f := range d.feats {
					e += s[i] / z * f[j]
				}
				grad[j] += d.feats[d.chosen][j] - e
			}
		}
	}
	return ll
}

func fit(data []decisionRec) [nFeat]float64 {
	var w [nFeat]float64
	var m, v [nFeat]float64
	for it := 1; it <= 3000; it++ {
		var g [nFeat]float64
		logLik(data, w, &g)
		for j := range w {
			g[j] /= float64(len(data))
			m[j] = 0.9*m[j] + 0.1*g[j]
			v[j] = 0.999*v[j] + 0.001*g[j]*g[j]
			mh := m[j] / (1 - math.Pow(0.9, float64(it)))
			vh := v[j] / (1 - math.Pow(0.999, float64(it)))
			w[j] += 0.01 * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	return w
}

func fitX(data []decisionRec, fn func(l openEnds, hand, line uint32, t, e int) [nFeat]float64) ([nFeat]float64, float64) {
	type dec struct {
		f [][nFeat]float64
		c int
	}
	ds := make([]dec, len(data))
	for i, d := range data {
		for _, p := range d.plays {
			ds[i].f = append(ds[i].f, fn(d.l, d.hand, d.line, p[0], p[1]))
		}
		ds[i].c = d.chosen
	}
	var w, m, v [nFeat]float64
	ll := 0.0
	for it := 1; it <= 2000; it++ {
		var g [nFeat]float64
		ll = 0
		for _, d := range ds {
			s := make([]float64, len(d.f))
			mx := -1e300
			for i, f := range d.f {
				for j := range f {
					s[i] += w[j] * f[j]
				}
				mx = max(mx, s[i])
			}
			z := 0.0
			for i := range s {
				s[i] = math.Exp(s[i] - mx)
				z += s[i]
			}
			ll += math.Log(s[d.c] / z)
			for j := range nFeat {
				e := 0.0
				for i, f := range d.f {
					e += s[i] / z * f[j]
				}
				g[j] += d.f[d.c][j] - e
			}
		}
		for j := range w {
			g[j] /= float64(len(ds))
			m[j] = 0.9*m[j] + 0.1*g[j]
			v[j] = 0.999*v[j] + 0.001*g[j]*g[j]
			mh := m[j] / (1 - math.Pow(0.9, float64(it)))
			vh := v[j] / (1 - math.Pow(0.999, float64(it)))
			w[j] += 0.01 * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	return w, ll / float64(len(ds))
}

func TestFitX(t *testing.T) {
	if os.Getenv("BOT_FIT") == "" {
		t.Skip("scratch")
	}
	var refs, exps []decisionRec
	mu := &sync.Mutex{}
	a := moveRecorder{mu, &exps, NewExpert(1, DefaultRollouts)}
	b := moveRecorder{mu, &refs, &reference{seed: 2, playouts: DefaultRollouts}}
	duel(t, "fit", a, b, 100)
	for name, data := range map[string][]decisionRec{"reference": refs, "expert": exps, "both": append(slices.Clone(refs), exps...)} {
		w, ll := fitX(data, playFeatures)
		t.Logf("%s: %d, w %#v ll %.4f", name, len(data), w, ll)
	}
}

type predRec struct {
	v     domain.SeatView
	other uint32
	mv    domain.Move
}

type predRecorder struct {
	mu    *sync.Mutex
	out   *[]predRec
	c     chooser
	other uint32
}

func (r predRecorder) seeing(v domain.SeatView) chooser { r.other = maskOf(v.Hand); return r }

func (r predRecorder) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	mv, err := r.c.Choose(ctx, v)
	n := 0
	for _, lm := range v.LegalMoves {
		if lm.Action == domain.ActionPlay {
			n++
		}
	}
	if err == nil && mv.Action == domain.ActionPlay && n > 1 {
		c := v
		c.Hand = slices.Clone(v.Hand)
		c.Scores = slices.Clone(v.Scores)
		r.mu.Lock()
		*r.out = append(*r.out, predRec{c, r.other, mv})
		r.mu.Unlock()
	}
	return mv, err
}

func TestPredictReference(t *testing.T) {
	if os.Getenv("BOT_FIT") == "" {
		t.Skip("scratch")
	}
	var refs, exps []predRec
	mu := &sync.Mutex{}
	b := predRecorder{mu: mu, out: &refs, c: &reference{seed: 2, playouts: DefaultRollouts}}
	a := predRecorder{mu: mu, out: &exps, c: NewExpert(1, DefaultRollouts)}
	duel(t, "pred", a, b, 30)
	predict(t, "reference", refs)
	predict(t, "expert", exps)
}

func predict(t *testing.T, who string, refs []predRec) {
	hits := map[string]int{}
	for _, p := range refs {
		hand := maskOf(p.v.Hand)
		g := seatSim(p.v, hand, p.v.Target)
		g.hands[1-p.v.Seat] = p.other
		want := [2]int{p.mv.Tile.Index(), 0}
		if p.mv.End == domain.Right {
			want[1] = 1
		}
		same := func(t, e int) bool { return t == want[0] && (e == want[1] || g.lineLen == 0) }
		m := g.playable(p.v.Seat)
		if tt, e := g.greedyPick(m); same(tt, e) {
			hits["greedy"]++
		}
		g.look, g.blockAdd = true, 5
		for _, pl := range []uint8{1, 2, 3} {
			g.plies = pl
			if tt, e := g.lookaheadPick(m); same(tt, e) {
				hits[fmt.Sprint("look", pl)]++
			}
		}
		line := maskOf(lineTiles(p.v.Line))
		l := g.ends()
		for name, w := range map[string][nFeat]float64{"both": softBoth, "ref": softRef} {
			bs, bt, be := -1e300, 0, 0
			for h := m; h != 0; h &= h - 1 {
				tt := bits.TrailingZeros32(h)
				for e := 0; e < 2; e++ {
					if l.n > 0 && !fitsEnd(tt, l.pip[e]) {
						continue
					}
					f := playFeatures(l, hand, line, tt, e)
					s := 0.0
					for j := range f {
						s += w[j] * f[j]
					}
					if s > bs {
						bs, bt, be = s, tt, e
					}
					if l.n == 0 {
						break
					}
				}
			}
			if same(bt, be) {
				hits["soft-"+name]++
			}
		}
	}
	t.Logf("%s: %d decisions: %v", who, len(refs), hits)
}

// polData turns recorded decisions into the learned policy's features, with the chosen index.
func polData(recs []predRec) ([][][]float64, []int) {
	var X [][][]float64
	var Y []int
	for _, p := range recs {
		hand := maskOf(p.v.Hand)
		g := seatSim(p.v, hand, p.v.Target)
		g.hands[1-p.v.Seat] = p.other
		g.look, g.blockAdd, g.plies = true, 5, 2
		line := maskOf(lineTiles(p.v.Line))
		l := g.ends()
		want := [2]int{p.mv.Tile.Index(), 0}
		if p.mv.End == domain.Right {
			want[1] = 1
		}
		var xs [][]float64
		c := -1
		for h := g.playable(p.v.Seat); h != 0; h &= h - 1 {
			tt := bits.TrailingZeros32(h)
			for e := 0; e < 2; e++ {
				if l.n > 0 && !fitsEnd(tt, l.pip[e]) {
					continue
				}
				if tt == want[0] && (e == want[1] || l.n == 0) {
					c = len(xs)
				}
				f := g.policyFeatures(l, line, tt, e)
				xs = append(xs, f[:])
				if l.n == 0 {
					break
				}
			}
		}
		if c >= 0 && len(xs) > 1 {
			X, Y = append(X, xs), append(Y, c)
		}
	}
	return X, Y
}

func fitN(X [][][]float64, Y []int, n int) []float64 {
	w, m, v := make([]float64, n), make([]float64, n), make([]float64, n)
	for it := 1; it <= 1500; it++ {
		g := make([]float64, n)
		for k, xs := range X {
			s := make([]float64, len(xs))
			mx := -1e300
			for i, f := range xs {
				for j := range f {
					s[i] += w[j] * f[j]
				}
				mx = max(mx, s[i])
			}
			z := 0.0
			for i := range s {
				s[i] = math.Exp(s[i] - mx)
				z += s[i]
			}
			for j := range n {
				e := 0.0
				for i, f := range xs {
					e += s[i] / z * f[j]
				}
				g[j] += xs[Y[k]][j] - e
			}
		}
		for j := range w {
			g[j] /= float64(len(X))
			m[j] = 0.9*m[j] + 0.1*g[j]
			v[j] = 0.999*v[j] + 0.001*g[j]*g[j]
			mh := m[j] / (1 - math.Pow(0.9, float64(it)))
			vh := v[j] / (1 - math.Pow(0.999, float64(it)))
			w[j] += 0.01 * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	return w
}

func top1(X [][][]float64, Y []int, w []float64) float64 {
	hit := 0
	for k, xs := range X {
		b, bv := 0, -1e300
		for i, f := range xs {
			s := 0.0
			for j := range f {
				s += w[j] * f[j]
			}
			if s > bv {
				b, bv = i, s
			}
		}
		if b == Y[k] {
			hit++
		}
	}
	return float64(hit) / float64(len(X))
}

func TestFitPolicy(t *testing.T) {
	if os.Getenv("BOT_FIT") == "" {
		t.Skip("scratch")
	}
	rec := func(name string, deals int) (refs, exps []predRec) {
		mu := &sync.Mutex{}
		b := predRecorder{mu: mu, out: &refs, c: &reference{seed: 2, playouts: DefaultRollouts}}
		a := predRecorder{mu: mu, out: &exps, c: NewExpert(1, DefaultRollouts)}
		duel(t, name, a, b, deals)
		return
	}
	fr, fe := rec("fit", 100)
	tr, te := rec("pred", 30)
	Xe, Ye := polData(fe)
	Xb, Yb := polData(append(slices.Clone(fr), fe...))
	Xte, Yte := polData(te)
	Xtr, Ytr := polData(tr)
	for name, d := range map[string]struct {
		X [][][]float64
		Y []int
	}{"expert": {Xe, Ye}, "both": {Xb, Yb}} {
		w := fitN(d.X, d.Y, nPol)
		t.Logf("%s: w %#v; top1 held-out expert %.3f reference %.3f", name, w, top1(Xte, Yte, w), top1(Xtr, Ytr, w))
	}
	look := make([]float64, nPol)
	look[nPol-1] = 1
	t.Logf("look2 alone: expert %.3f reference %.3f", top1(Xte, Yte, look), top1(Xtr, Ytr, look))
}
