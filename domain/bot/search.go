package bot

import (
	"context"

	"github.com/allfives/allfives/domain"
)

// move is a legal move in the simulator's terms: a tile index and an end for a play, or a
// draw or a pass.
type move struct {
	action domain.Action
	tile   int
	end    int
}

// movesOf converts the view's legal moves, in the listed order, for the simulator.
func movesOf(legal []domain.LegalMove, order []int) []move {
	out := make([]move, len(order))
	for i, li := range order {
		m := legal[li]
		out[i] = move{action: m.Action, tile: m.Tile.Index(), end: int(m.End)}
	}
	return out
}

// apply makes the seat to move take m.
func (g *sim) apply(m move) {
	switch m.action {
	case domain.ActionPlay:
		g.play(m.tile, m.end)
	case domain.ActionDraw:
		g.draw()
	default:
		g.pass()
	}
}

// study is one fixed-budget Monte Carlo evaluation of a seat's candidate moves: deal a
// hidden world, play every candidate in it, finish the hand, and score; repeat until exactly
// budget playouts have been run. A forced move gets the same budget as a real choice, so a
// decision's time does not give away whether the seat had a choice, as an instant answer to
// a forced move would.
type study struct {
	base   sim                          // the hand as the seat knows it, hidden parts empty
	cands  []move                       // the candidates, in the order ties are broken
	budget int                          // playouts per decision, whatever len(cands) is
	deal   func(r *rng, g *sim) float64 // fills the hidden parts; returns the deal's weight
	finish func(g *sim)                 // plays the hand out
	score  func(g *sim) float64         // the value of a finished playout for the seat
}

// run returns the weighted mean value of each candidate and the playouts it ran. Every
// candidate is judged on the same deals (common random numbers), which cancels most of the
// luck between them; when the budget does not divide evenly, the last deal is shared by the
// first candidates only, which the means absorb.
func (s *study) run(ctx context.Context, r *rng) ([]float64, int, error) {
	if len(s.cands) == 0 {
		return nil, 0, errNoMoves
	}
	sum := make([]float64, len(s.cands))
	weight := make([]float64, len(s.cands))
	done := 0
	world, g := new(sim), new(sim) // allocated once: the callbacks would make locals escape
	for n := 0; done < s.budget; n++ {
		if n%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, done, err
			}
		}
		*world = s.base
		w := s.deal(r, world)
		for i, c := range s.cands {
			if done == s.budget {
				break
			}
			done++
			if w == 0 {
				continue
			}
			*g = *world
			g.apply(c)
			s.finish(g)
			sum[i] += w * s.score(g)
			weight[i] += w
		}
	}
	for i := range sum {
		if weight[i] > 0 {
			sum[i] /= weight[i]
		}
	}
	return sum, done, nil
}

// best is the index of the highest value; ties keep the earliest, so the caller's order
// breaks them.
func best(values []float64) int {
	b := 0
	for i, v := range values {
		if v > values[b] {
			b = i
		}
	}
	return b
}

// seatSim is the hand as v's seat knows it, with hand as its own tiles: the line's ends and
// the turn. The hidden hands and boneyard are left for a deal to fill.
func seatSim(v domain.SeatView, hand uint32, target int) sim {
	g := newSim(v.Table, v.Scores, target)
	g.hands[v.Seat] = hand
	g.turn = uint8(v.Seat)
	if n := v.Line.Len(); n > 0 {
		l, r := v.Line.End(domain.Left), v.Line.End(domain.Right)
		g.end = [2]uint8{uint8(l.Pip), uint8(r.Pip)}
		g.dbl = [2]bool{l.Double, r.Double}
		g.lineLen = uint8(min(n, nTiles))
	}
	return g
}

// margin is side's points over the best opposing side's since the playout began.
func margin(g *sim, side int) int {
	best := int32(-1 << 30)
	for s := 0; s < int(g.sides); s++ {
		if s != side && g.gained[s] > best {
			best = g.gained[s]
		}
	}
	return int(g.gained[side] - best)
}
