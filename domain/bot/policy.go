package bot

import "math/bits"

// openEnds is the open ends of a line: what a play needs to know to be scored.
type openEnds struct {
	pip [2]uint8
	dbl [2]bool
	n   uint8 // tiles laid, capped
}

func (g *sim) ends() openEnds { return openEnds{g.end, g.dbl, g.lineLen} }

// after is the ends once tile t is laid on end e.
func (l openEnds) after(t, e int) openEnds {
	lo, hi := tileLo[t], tileHi[t]
	if l.n == 0 {
		return openEnds{[2]uint8{lo, hi}, [2]bool{lo == hi, lo == hi}, 1}
	}
	l.pip[e] = lo + hi - l.pip[e]
	l.dbl[e] = lo == hi
	l.n++
	return l
}

// total is what the ends count.
func (l openEnds) total() int {
	v := 0
	for e := 0; e < 2; e++ {
		if l.dbl[e] {
			v += 2 * int(l.pip[e])
		} else {
			v += int(l.pip[e])
		}
	}
	if l.n == 1 && l.dbl[0] {
		return v / 2 // a lone double counts its pips once
	}
	return v
}

// bestScore is the most hand can score on l, and whether any tile of it fits.
func (l openEnds) bestScore(hand uint32) (int, bool) {
	if l.n > 0 {
		hand &= pipTiles[l.pip[0]] | pipTiles[l.pip[1]]
	}
	best, any := 0, false
	for m := hand; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for e := 0; e < 2; e++ {
			if l.n > 0 && tileLo[t] != l.pip[e] && tileHi[t] != l.pip[e] {
				continue
			}
			any = true
			best = max(best, scoreOf(l.after(t, e).total()))
			if l.n == 0 {
				break
			}
		}
	}
	return best, any
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
				reply, ok := after.bestScore(g.hands[next])
				switch {
				case partner:
					v += reply
				case !ok:
					v += blockBonus
				default:
					v -= reply
				}
			}
			v = v*32 + int(tilePips[t])
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

// blockBonus is what leaving the next opponent without a play is worth to the lookahead
// policy, in points: it must draw (more pips in hand) or pass.
const blockBonus = 3
