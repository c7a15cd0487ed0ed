package bot

import "math/bits"

// This file is the presumed-value answer of the extended variant (extended_test.go, row
// ext-pv8 of screen_test.go): after Wisser's presumed-value PIMC (2015), the opponent answers
// the seat's candidate without seeing the seat's hand, as it must in a real match, where plain
// Monte Carlo lets it answer as if it did.

// presumedStep makes the opponent to move act as the lookahead policy would if it could not
// see seat me's hand: each play's points net of me's best answer (two plies deep, as the
// expert's policy) averaged over n hands of me's size drawn from what the opponent cannot see
// (me's hand and the boneyard), the same n hands for every play; a block of all of them
// counts the block bonus. It returns what stepCode returns.
func presumedStep(g *sim, r *rng, me, n int) uint64 {
	opp := int(g.turn)
	m := g.playable(opp)
	if m == 0 {
		return stepCode(g)
	}
	hidden := g.hands[me]
	for i := g.boneAt; i < g.boneEnd; i++ {
		hidden |= 1 << g.bone[i]
	}
	size := bits.OnesCount32(g.hands[me])
	guesses := make([]uint32, n)
	for k := range guesses {
		left := hidden
		for range size {
			t := randomTile(r, left)
			guesses[k] |= 1 << t
			left &^= 1 << t
		}
	}
	l := g.ends()
	bestV, tile, end := -1<<30, 0, 0
	for ; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for e := 0; e < 2; e++ {
			if l.n > 0 && !fitsEnd(t, l.pip[e]) {
				continue
			}
			after := l.after(t, e)
			v := 32 * scoreOf(after.total()) * n
			if g.hands[opp] != 1<<t {
				for _, h := range guesses {
					reply, ok := after.net(h, g.hands[opp]&^(1<<t), int(g.plies), 0)
					if !ok {
						reply = -(blockBonus + int(g.blockAdd))
					}
					v -= 32 * reply
				}
			}
			v += n * int(tilePips[t])
			if v > bestV {
				bestV, tile, end = v, t, e
			}
			if l.n == 0 {
				break
			}
		}
	}
	g.play(tile, end)
	return uint64(1 + 2*tile + end)
}
