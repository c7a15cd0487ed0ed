package bot

import "math/bits"

// solve is the exact value for side of the hand from g, with every seat playing its best for
// its own side (alpha-beta over the remaining plays). It needs two sides and a known deal,
// so that nothing is left to chance: in a two-player hand that is the true position once the
// boneyard is gone, and a review's hindsight knows the boneyard's order, so a draw is one
// more forced step. nodes caps the work; past the cap a position is
// valued by a lookahead rollout instead, so the result stays deterministic. stack is scratch
// space, one sim per level below this one, so the search allocates nothing.
func (g *sim) solve(side, alpha, beta int, nodes *int, stack []sim) int {
	if g.state != live {
		return outcome(g, side)
	}
	if *nodes <= 0 || len(stack) == 0 {
		c := *g
		c.look = true
		c.rollout()
		return outcome(&c, side)
	}
	*nodes--
	seat := int(g.turn)
	m := g.playable(seat)
	if m == 0 {
		c := &stack[0]
		*c = *g
		if c.boneAt < c.boneEnd { // only a review's hindsight searches a known boneyard
			c.draw()
		} else {
			c.pass()
		}
		return c.solve(side, alpha, beta, nodes, stack[1:])
	}
	var buf [14]move
	plays := g.orderedPlays(m, &buf)
	maximize := int(g.sideOf[seat]) == side
	best := -1 << 30
	if !maximize {
		best = 1 << 30
	}
	for _, p := range plays {
		c := &stack[0]
		*c = *g
		c.play(p.tile, p.end)
		v := c.solve(side, alpha, beta, nodes, stack[1:])
		if maximize {
			best = max(best, v)
			alpha = max(alpha, v)
		} else {
			best = min(best, v)
			beta = min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// solveDepth is the scratch a solve needs: every play and pass left in a hand is one level.
const solveDepth = 2 * nTiles

// orderedPlays lists the plays of the tiles in m into buf, highest score first, which makes
// alpha-beta cut early.
func (g *sim) orderedPlays(m uint32, buf *[14]move) []move {
	var pts [14]int
	n := 0
	for ; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for e := 0; e < 2; e++ {
			if g.lineLen > 0 && !fitsEnd(t, g.end[e]) {
				continue
			}
			p := scoreOf(g.totalAfter(t, e))*64 + int(tilePips[t])
			i := n
			for ; i > 0 && pts[i-1] < p; i-- {
				buf[i], pts[i] = buf[i-1], pts[i-1]
			}
			buf[i], pts[i] = move{tile: t, end: e}, p
			n++
			if g.lineLen == 0 {
				break
			}
		}
	}
	return buf[:n]
}
