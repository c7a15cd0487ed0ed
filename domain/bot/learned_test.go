package bot

import (
	"context"
	"math/bits"
	"testing"

	"github.com/allfives/allfives/domain"
)

// This file is issue 59's item 3 (docs/decisions/023-a-learned-value-and-the-levels-measured-again.md):
// a value learned offline from perfect-information targets and played without them, after
// PerfectDou and Suphx's oracle guiding. A linear model over what the seat can see scores each
// of its plays; it was fitted (train_test.go) to the oracle's values of the plays, the
// released expert's study told the opponent's hand (oracle_test.go), so it learned what the
// plays are worth on average over the hands the opponent really holds in self-play. The row
// "learned" adds the model's advantage of each play to the expert's own Monte Carlo values,
// in the proportion a second fit on other matches found best, where the expert's study is
// the plain playouts (two players, more than deepUnseen tiles hidden, the boneyard not empty).

// nFeatures is the length of a play's feature vector (playFeatures).
const nFeatures = 16

// learnedModel is the fitted model: weights over playFeatures, in points, and the blend of
// the expert's values (mc) and the model's (model) that the stacking fit found.
type learnedModel struct {
	w         [nFeatures]float64
	mc, model float64
}

// applies says whether the learned row changes the expert's decision in v: a choice among
// plays only, at two players, early in the hand, where the expert's values are its playouts'.
func learnedApplies(v domain.SeatView, k *knowledge) bool {
	if v.Table.Players() != 2 || v.Boneyard == 0 || len(v.LegalMoves) < 2 || bits.OnesCount32(k.unseen) <= deepUnseen {
		return false
	}
	for _, m := range v.LegalMoves {
		if m.Action != domain.ActionPlay {
			return false
		}
	}
	return true
}

// oppOdds is, for each unseen tile, the chance the opponent holds it as the seat can judge
// it: uniform over the opponent's slots, each slot ruling out the suits the opponent showed
// it lacked (knowledge), scaled so the chances add up to the opponent's hand size.
func oppOdds(k *knowledge, opp int) [nTiles]float64 {
	var p [nTiles]float64
	slots := k.slots[opp]
	if len(slots) == 0 {
		return p
	}
	sum := 0.0
	for m := k.unseen; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for _, f := range slots {
			if f&(1<<t) == 0 {
				p[t]++
			}
		}
		sum += p[t]
	}
	if sum == 0 {
		return p
	}
	for t := range p {
		p[t] = min(1, p[t]*float64(len(slots))/sum)
	}
	return p
}

// playFeatures describes the play of tile t on end e as the seat sees it: what it scores
// now, what it sheds, what it leaves the seat and, by the odds of oppOdds, what it leaves
// the opponent. Every feature is known to the seat; none reads a hidden hand.
func playFeatures(g *sim, me int, unseen uint32, odds *[nTiles]float64, oppSize, bone int, t, e int) [nFeatures]float64 {
	var f [nFeatures]float64
	mine := g.hands[me]
	rest := mine &^ (1 << t)
	after := g.ends().after(t, e)
	now := scoreOf(after.total())
	late := 0.0
	if oppSize <= 3 {
		late = 1
	}
	empty := 0.0
	if bone == 0 {
		empty = 1
	}
	fit := pipTiles[after.pip[0]] | pipTiles[after.pip[1]]
	oppFit, oppScore, noAnswer, noScore := 0.0, 0.0, 1.0, 1.0
	for m := unseen & fit; m != 0; m &= m - 1 {
		u := bits.TrailingZeros32(m)
		p := odds[u]
		oppFit += p
		noAnswer *= 1 - p
		best := 0
		for x := 0; x < 2; x++ {
			if fitsEnd(u, after.pip[x]) {
				best = max(best, int(fives[newEnd[u][after.pip[x]]+after.val[1-x]]))
			}
		}
		if best > 0 {
			oppScore += p * float64(best) / 5
			noScore *= 1 - p
		}
	}
	next, _ := after.bestScore(rest)
	f[0] = float64(now) / 5
	f[1] = b2f(rest == 0)
	f[2] = b2f(int(g.score[g.sideOf[me]])+now >= int(g.target))
	f[3] = float64(tilePips[t]) / 6
	f[4] = b2f(tileLo[t] == tileHi[t])
	f[5] = float64(bits.OnesCount32(rest & fit))
	f[6] = float64(next) / 5
	f[7] = oppFit
	f[8] = oppScore
	f[9] = 1 - noScore
	f[10] = noAnswer
	f[11] = noAnswer * empty
	f[12] = f[3] * late
	f[13] = f[5] * empty
	f[14] = float64(after.total()) / 10
	f[15] = float64(bits.OnesCount32(rest & doublesAll &^ fit)) // doubles left that the new ends do not take
	return f
}

// doublesAll is the set of the seven doubles.
var doublesAll = doubles[0] | 1<<mustIndex(0, 0)

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// learnedValues is the model's value of each candidate of s, in the units of the expert's
// values at v's score: points turned into equity by equitySlope.
func (m *learnedModel) learnedValues(v domain.SeatView, k *knowledge, s *study) []float64 {
	odds := oppOdds(k, 1-v.Seat)
	g := s.base
	slope := equitySlope(v.Scores, v.Table.SideOf(v.Seat), v.Target)
	out := make([]float64, len(s.cands))
	for i, c := range s.cands {
		f := playFeatures(&g, v.Seat, k.unseen, &odds, v.HandSizes[1-v.Seat], v.Boneyard, c.tile, c.end)
		sum := 0.0
		for j := range f {
			sum += m.w[j] * f[j]
		}
		out[i] = slope * sum
	}
	return out
}

// learned is the expert with the model's values blended into its own where learnedApplies.
type learned struct {
	x *Expert
	m *learnedModel
}

// Choose is the expert's decision, its values blended with the model's where the row applies.
func (p learned) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	k := read(v)
	if !learnedApplies(v, k) {
		return p.x.Choose(ctx, v)
	}
	s, order := p.x.prepare(v, k)
	values, _, err := p.x.search(ctx, v, k, &s)
	if err != nil {
		return domain.Move{}, err
	}
	model := p.m.learnedValues(v, k, &s)
	for i := range values {
		values[i] = p.m.mc*values[i] + p.m.model*model[i]
	}
	return v.LegalMoves[order[best(values)]].Move(), nil
}

// advantage is xs less their mean: what a play is worth beside the others of its position.
func advantage(xs []float64) []float64 {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(max(len(xs), 1))
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x - mean
	}
	return out
}

// TestTrainedModelChecksum: the shipped weights are the ones BenchmarkTrainLearned wrote,
// not edited by hand since.
func TestTrainedModelChecksum(t *testing.T) {
	if got := trainedModel.checksum(); got != trainedChecksum {
		t.Fatalf("learnedweights_test.go's numbers hash to %s, the file says %s: run the training command of train_test.go again", got, trainedChecksum)
	}
}

// TestLearnedPlays: the learned row plays whole matches against greedy play with legal moves
// (the harness refuses any other), and wins most of them.
func TestLearnedPlays(t *testing.T) {
	r := duel(t, "learned-plays", learned{x: NewExpert(1, 200), m: &trainedModel}, NewGreedy(), 2)
	if r.rate() < 0.5 {
		t.Fatalf("learned against greedy: %s, want most", r)
	}
}
