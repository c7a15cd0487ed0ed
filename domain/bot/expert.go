package bot

import (
	"context"

	"github.com/allfives/allfives/domain"
)

// DefaultRollouts is the expert's work per decision: the number of hands it plays out, shared
// among the candidate plays. It is a count, not a time limit, so a decision is the same on a
// fast machine and a slow one; BenchmarkExpertChoose shows what it costs.
const DefaultRollouts = 2400

// Expert is an information-set Monte Carlo player. For each decision it samples deals of the
// tiles it cannot see that agree with everything its seat has observed (see knowledge), plays
// every candidate in each sampled deal and finishes the hand with a fast greedy policy for all
// seats, and takes the candidate with the best average outcome: its side's points minus the
// best opposing side's, with a large bonus or penalty when the match is won or lost on the way
// and a small one for winning the lead of the next hand.
type Expert struct {
	seed     uint64
	rollouts int
}

// Evaluation weights, in points. Winning the match outweighs any margin; the lead of the next
// hand is worth a little (the leader plays first and scores first).
const (
	matchWeight = 200
	leadWeight  = 3
)

// NewExpert returns an expert that plays out about rollouts hands per decision (at least one
// deal per candidate). Its sampling derives from seed and the view, so it is repeatable.
func NewExpert(seed uint64, rollouts int) *Expert {
	return &Expert{seed: seed, rollouts: max(rollouts, 1)}
}

// Choose searches the legal plays when there is a choice, and returns a forced move at once.
func (x *Expert) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, err
	}
	if mv, ok, err := onlyMove(v); ok || err != nil {
		return mv, err
	}
	k := read(v)
	order := greedyRank(v, k)
	totals, err := x.search(ctx, v, k, order)
	if err != nil {
		return domain.Move{}, err
	}
	best := 0
	for i := range totals {
		if totals[i] > totals[best] {
			best = i // strictly better only: ties keep the greedy order
		}
	}
	return v.LegalMoves[order[best]].Move(), nil
}

// search returns, for each move in order, the sum of its outcomes over the sampled deals. All
// candidates are judged on the same deals, which cancels most of the luck between them.
func (x *Expert) search(ctx context.Context, v domain.SeatView, k *knowledge, order []int) ([]int, error) {
	base := simFromView(v, k)
	side := v.Table.SideOf(v.Seat)
	type cand struct{ tile, end int }
	cands := make([]cand, len(order))
	for i, li := range order {
		m := v.LegalMoves[li]
		cands[i] = cand{m.Tile.Index(), int(m.End)}
	}
	samples := max(x.rollouts/len(cands), 1)
	smp := newSampler(k)
	r := viewRNG(x.seed, v)
	totals := make([]int, len(cands))
	for n := 0; n < samples; n++ {
		if n%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		deal := base
		smp.deal(&r, &deal)
		for i, c := range cands {
			g := deal
			g.play(c.tile, c.end)
			g.rollout()
			totals[i] += outcome(&g, side)
		}
	}
	return totals, nil
}

// simFromView is the hand as v's seat knows it; the hidden hands and boneyard are left for the
// sampler to fill.
func simFromView(v domain.SeatView, k *knowledge) sim {
	g := newSim(v.Table, v.Scores, v.Target)
	g.hands[v.Seat] = k.mine
	g.turn = uint8(v.Seat)
	if n := v.Line.Len(); n > 0 {
		l, r := v.Line.End(domain.Left), v.Line.End(domain.Right)
		g.end = [2]uint8{uint8(l.Pip), uint8(r.Pip)}
		g.dbl = [2]bool{l.Double, r.Double}
		g.lineLen = uint8(min(n, nTiles))
	}
	return g
}

// outcome scores a finished rollout for side: the point margin over the best opposing side,
// plus the match or next-lead bonus.
func outcome(g *sim, side int) int {
	best := int32(-1 << 30)
	for s := 0; s < int(g.sides); s++ {
		if s != side && g.gained[s] > best {
			best = g.gained[s]
		}
	}
	v := int(g.gained[side] - best)
	w := 0
	switch g.state {
	case matchOver:
		w = matchWeight
	case wentOut:
		w = leadWeight
	default:
		return v
	}
	if int(g.winner) == side {
		return v + w
	}
	return v - w
}
