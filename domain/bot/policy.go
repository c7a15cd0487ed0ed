package bot

import (
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// openEnds is the open ends of a line: what a play needs to know to be scored. val is what
// each end counts (twice the pip for a double), so a play's total is one addition.
type openEnds struct {
	pip [2]uint8
	val [2]uint8
	n   uint8 // tiles laid, capped
}

var (
	// newEnd[t][p] is what the end becomes worth when tile t is laid on an end showing p.
	newEnd [nTiles][domain.MaxPip + 1]uint8
	// fives[v] is what a total of v scores.
	fives [4*domain.MaxPip + 1]uint8
)

// initScoring fills newEnd and fives; tiles.go's init calls it once the tile tables exist
// (init functions run file by file, so this one cannot be an init of its own).
func initScoring() {
	for t := 0; t < nTiles; t++ {
		for p := uint8(0); p <= domain.MaxPip; p++ {
			if fitsEnd(t, p) {
				newEnd[t][p] = endWorth(tileLo[t]+tileHi[t]-p, tileLo[t] == tileHi[t])
			}
		}
	}
	for v := range fives {
		fives[v] = uint8(scoreOf(v))
	}
}

func endWorth(pip uint8, double bool) uint8 {
	if double {
		return 2 * pip
	}
	return pip
}

func (g *sim) ends() openEnds {
	return openEnds{g.end, [2]uint8{endWorth(g.end[0], g.dbl[0]), endWorth(g.end[1], g.dbl[1])}, g.lineLen}
}

// after is the ends once tile t is laid on end e.
func (l openEnds) after(t, e int) openEnds {
	lo, hi := tileLo[t], tileHi[t]
	if l.n == 0 {
		return openEnds{[2]uint8{lo, hi}, [2]uint8{endWorth(lo, lo == hi), endWorth(hi, lo == hi)}, 1}
	}
	l.val[e] = newEnd[t][l.pip[e]]
	l.pip[e] = lo + hi - l.pip[e]
	l.n++
	return l
}

// total is what the ends count. A lone tile counts its pips once, a lone double too.
func (l openEnds) total() int {
	if l.n == 1 && l.pip[0] == l.pip[1] {
		return int(l.val[0])
	}
	return int(l.val[0]) + int(l.val[1])
}

// bestScore is the most hand can score on l, and whether any tile of it fits.
func (l openEnds) bestScore(hand uint32) (int, bool) {
	best := uint8(0)
	if l.n == 0 {
		for m := hand; m != 0; m &= m - 1 {
			best = max(best, fives[tilePips[bits.TrailingZeros32(m)]])
		}
		return int(best), hand != 0
	}
	for e := 0; e < 2; e++ {
		other := l.val[1-e]
		for m := hand & pipTiles[l.pip[e]]; m != 0; m &= m - 1 {
			best = max(best, fives[newEnd[bits.TrailingZeros32(m)][l.pip[e]]+other])
		}
	}
	return int(best), hand&(pipTiles[l.pip[0]]|pipTiles[l.pip[1]]) != 0
}

// lookaheadPick is the better rollout policy: the play that scores most now net of the best
// the next seat can score in reply (added when the next seat is a partner), with a bonus
// for leaving the next seat no play at all; ties go to the heaviest tile. The rollout knows
// every hand of its sampled deal, so the reply is the next seat's real best.
func (g *sim) lookaheadPick(m uint32) (tile, end int) {
	seat := int(g.turn)
	next := (seat + 1) % int(g.players)
	partner := g.sideOf[next] == g.sideOf[seat]
	l := g.ends()
	best := -1 << 30
	for ; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for e := 0; e < 2; e++ {
			if l.n > 0 && !fitsEnd(t, l.pip[e]) {
				continue
			}
			after := l.after(t, e)
			v := scoreOf(after.total())
			if g.hands[seat] != 1<<t { // going out ends the hand: no reply
				var reply int
				var ok bool
				if g.plies > 1 && g.players == 2 {
					reply, ok = after.net(g.hands[next], g.hands[seat]&^(1<<t), int(g.plies), int(g.netBlk))
				} else {
					reply, ok = after.bestScore(g.hands[next])
				}
				switch {
				case partner:
					v += reply
				case !ok:
					v += blockBonus + int(g.blockAdd)
					if g.knobs && g.boneAt >= g.boneEnd {
						v += int(g.blkEmpty)
					}
				default:
					v -= reply
				}
			}
			v = v*32 + int(tilePips[t])
			if g.knobs {
				v += g.shape(seat, t, after)
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

// shape is what the measured and rejected policy terms add to a play of t by seat that leaves
// the ends after, in 1/32 points (p-pip8, p-pip16, p-dbl3, p-mob1 and p-mob2 of
// docs/decisions/013-the-late-solve-starts-at-ten-hidden-tiles.md): for the pips shed, for shedding a double, and per tile of
// the seat's that still fits. lookaheadPick asks only when g.knobs is set, which the released
// expert never sets.
func (g *sim) shape(seat, t int, after openEnds) int {
	v := int(g.pipW) * int(tilePips[t])
	if tileLo[t] == tileHi[t] {
		v += 32 * int(g.dblAdd)
	}
	fit := g.hands[seat] &^ (1 << t) & (pipTiles[after.pip[0]] | pipTiles[after.pip[1]])
	return v + 32*int(g.mob)*bits.OnesCount32(fit)
}

// blockBonus is what leaving the next opponent without a play is worth to the lookahead
// policy, in points: it must draw (more pips in hand) or pass.
const blockBonus = 3

// maxPlies is the deepest net the lookahead policy takes: each ply multiplies its work by the
// plays a hand has that fit.
const maxPlies = 3

// net is the mover's best play on l looked at plies deep, at two players: its points less the
// best the other (holding other) can make of its reply looked at one ply less, or its points
// and the other's pips rounded when the play takes it out; one ply deep it is the most it can
// score (bestScore). A play after which the other has no answer counts blk points more (the
// measured and rejected p-nb4 and p-nb8 of
// docs/decisions/013-the-late-solve-starts-at-ten-hidden-tiles.md; 0 in the released expert). It
// reports whether the mover has a play.
func (l openEnds) net(mover, other uint32, plies, blk int) (int, bool) {
	if plies <= 1 {
		return l.bestScore(mover)
	}
	best, ok := -1<<30, false
	for e := 0; e < 2; e++ {
		for m := mover & pipTiles[l.pip[e]]; m != 0; m &= m - 1 {
			u := bits.TrailingZeros32(m)
			after := l.after(u, e)
			v := scoreOf(after.total())
			if mover == 1<<u {
				v += domain.Round5(maskPips(other))
			} else {
				back, ok := after.net(other, mover&^(1<<u), plies-1, blk)
				if !ok {
					back = -blk
				}
				v -= back
			}
			best, ok = max(best, v), true
		}
	}
	if !ok {
		return 0, false
	}
	return best, true
}
