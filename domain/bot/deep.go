package bot

// This file is the expert's search of sampled deals late in a two-player hand: once few tiles
// are hidden, each sampled deal is solved exactly rather than played out by a policy.

// deepSolves is how many sampled deals-and-candidates the late search solves per decision, a
// fixed count like the playouts, shared among the candidates, so a forced move costs a real
// choice's work.
const deepSolves = 240

// deepNodes caps the positions one solve of one sampled deal visits; past it a lookahead
// playout values the position, as in the exact endgame.
const deepNodes = 1500

// deepUnseen is the most hidden tiles (the opponent's hand and the boneyard) the late search
// takes on. The search assumes the deal will be known after the move, a flaw that grows with
// what is hidden: solving from 10 hidden tiles won more matches than from 12, and 8 did no
// better (docs/decisions/013-the-late-solve-starts-at-ten-hidden-tiles.md).
const deepUnseen = 10

// solveSampled replaces values by the weighted mean exact value of each candidate over
// sampled deals: the opponent's hand and the boneyard's order are dealt as for the playouts,
// and each deal is searched to the end of the hand with every seat playing its best for its
// side, the draws taken in the deal's order. This is perfect-information search of each deal
// (it assumes the seat will know the deal after this move, which it will not), but late in a
// hand, with few tiles hidden, it sees what a policy playout misses: which tile to keep back,
// when to block. The count of solves is fixed; the playouts have run all the same.
func (x *Expert) solveSampled(s *study, r *rng, side int, values []float64) {
	sum := make([]float64, len(s.cands))
	weight := make([]float64, len(s.cands))
	world, g := new(sim), new(sim)
	stack := make([]sim, hindsightDepth)
	for done := 0; done < x.opts.deep; {
		*world = s.base
		w := s.deal(r, world)
		for i, c := range s.cands {
			if done == x.opts.deep {
				break
			}
			done++
			if w == 0 {
				continue
			}
			*g = *world
			g.apply(c)
			nodes := x.opts.deepNodes
			sum[i] += w * float64(g.solve(side, -1<<30, 1<<30, &nodes, stack))
			weight[i] += w
		}
	}
	for i := range values {
		if weight[i] > 0 {
			values[i] = sum[i] / weight[i]
		}
	}
}
