package bot

import "math/bits"

// nFeat is the number of features of a play (playFeatures).
const nFeat = 11

// playFeatures of a play of t on end e of l by a seat holding hand (t among them), the tiles
// of line laid before it.
func playFeatures(l openEnds, hand, line uint32, t, e int) [nFeat]float64 {
	after := l.after(t, e)
	rest := hand &^ (1 << t)
	unknown := allTiles &^ line &^ hand
	expo, _ := after.bestScore(unknown)
	follow, _ := after.bestScore(rest)
	ends := pipTiles[after.pip[0]] | pipTiles[after.pip[1]]
	fit := rest & ends
	dbl := 0.0
	if tileLo[t] == tileHi[t] {
		dbl = 1
	}
	cnt := 0
	for m := unknown & ends; m != 0; m &= m - 1 {
		u := bits.TrailingZeros32(m)
		for e2 := 0; e2 < 2; e2++ {
			if fitsEnd(u, after.pip[e2]) && scoreOf(after.after(u, e2).total()) > 0 {
				cnt++
				break
			}
		}
	}
	lead := 0.0
	if l.n == 0 {
		lead = float64(tilePips[t])
	}
	fol := 0.0
	if follow > 0 {
		fol = 1
	}
	return [nFeat]float64{
		float64(scoreOf(after.total())), float64(expo), float64(tilePips[t]), dbl, float64(follow),
		float64(bits.OnesCount32(fit)), float64(cnt), lead, fol,
		float64(bits.OnesCount32(unknown & ends)), float64(bits.OnesCount32(rest&pipTiles[after.pip[0]]) + bits.OnesCount32(rest&pipTiles[after.pip[1]])),
	}
}

// nPol is the number of features of the learned playout policy: playFeatures and lookValue.
const nPol = nFeat + 1

// policyFeatures are the features of the seat to move's play of t on end e in g.
func (g *sim) policyFeatures(l openEnds, line uint32, t, e int) [nPol]float64 {
	seat := int(g.turn)
	next := (seat + 1) % int(g.players)
	var f [nPol]float64
	pf := playFeatures(l, g.hands[seat], line, t, e)
	copy(f[:], pf[:])
	f[nFeat] = float64(g.lookValue(seat, next, g.sideOf[next] == g.sideOf[seat], l.after(t, e), t))
	return f
}

// laid is the set of tiles on the line: those in no hand and not in the boneyard.
func (g *sim) laid() uint32 {
	held := uint32(0)
	for s := 0; s < int(g.players); s++ {
		held |= g.hands[s]
	}
	for i := g.boneAt; i < g.boneEnd; i++ {
		held |= 1 << g.bone[i]
	}
	return allTiles &^ held
}

// learnedPick is the play of m with the highest w·policyFeatures.
func (g *sim) learnedPick(m uint32, w *[nPol]float64) (tile, end int) {
	l := g.ends()
	line := g.laid()
	best := -1e300
	for ; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for e := 0; e < 2; e++ {
			if l.n > 0 && !fitsEnd(t, l.pip[e]) {
				continue
			}
			f := g.policyFeatures(l, line, t, e)
			v := 0.0
			for j := range f {
				v += w[j] * f[j]
			}
			if v > best {
				best, tile, end = v, t, e
			}
			if l.n == 0 {
				break
			}
		}
	}
	return tile, end
}
