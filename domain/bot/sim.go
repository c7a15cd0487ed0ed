package bot

import (
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// sim is one hand of All Fives over plain arrays, for rollouts: copying it is copying a value,
// and playing a move touches a few words. It follows docs/rules.md for everything it simulates
// (plays, draws, passes, counting the ends, going out, blocked hands and the match ending on
// the target, even mid-hand); dealing the next hand is left to the domain. sim_test.go plays
// it against domain.Match move for move.
type sim struct {
	hands    [4]uint32
	bone     [nTiles]uint8 // boneyard in draw order; bone[boneAt:boneEnd] is left
	boneAt   int8
	boneEnd  int8
	end      [2]uint8 // pips of the left and right ends
	dbl      [2]bool  // whether the tile at each end is a double
	lineLen  uint8
	players  uint8
	turn     uint8
	sideOf   [4]uint8
	sides    uint8
	passes   uint8    // passes in a row, a guard against a state that is blocked but not marked
	score    [4]int32 // match score per side, updated as the sim scores
	gained   [4]int32 // points per side since the sim started
	target   int32    // the match target
	state    simState // whether the hand (or the match) is over
	winner   int8     // side that won the hand or match, -1 for a blocked tie
	outSeat  int8     // seat that went out, -1 otherwise
	look     bool     // rollouts use lookaheadPick instead of greedyPick
	blockAdd int8     // points lookaheadPick adds to blockBonus (an experiment's knob)
	plies    uint8    // how deep lookaheadPick looks at two players: 1, the reply; 2 or 3, nets (net)
	equity   bool     // outcome values a finished hand by the match's chances (equityValue)
	// Knobs of measured and rejected policy terms (decision 013 of docs/decisions), all 0 in the released
	// expert; lookaheadPick reads the first four only when knobs is set:
	knobs    bool
	pipW     int8 // 1/32 points per pip lookaheadPick adds for shedding a tile (shape)
	dblAdd   int8 // points lookaheadPick adds for shedding a double (shape)
	mob      int8 // points lookaheadPick adds per own tile still fitting after the play (shape)
	blkEmpty int8 // points lookaheadPick adds to a block once the boneyard is empty
	netBlk   int8 // points net counts for a reply that leaves the other no answer
}

type simState uint8

const (
	live simState = iota
	wentOut
	blockedOut
	matchOver
)

// newSim sets up the table shape and match scores; hands, boneyard and line are filled by the
// caller.
func newSim(t domain.Table, scores []int, target int) sim {
	g := sim{players: uint8(t.Players()), sides: uint8(t.Sides()), target: int32(target), winner: -1, outSeat: -1}
	for s := 0; s < t.Players(); s++ {
		g.sideOf[s] = uint8(t.SideOf(s))
	}
	for i, sc := range scores {
		g.score[i] = int32(sc)
	}
	return g
}

// endValue is what end e counts: twice the pip for a double laid crosswise.
func (g *sim) endValue(e int) int {
	if g.dbl[e] {
		return 2 * int(g.end[e])
	}
	return int(g.end[e])
}

// playable is the set of seat's tiles that fit an open end (any tile on an empty line).
func (g *sim) playable(seat int) uint32 {
	if g.lineLen == 0 {
		return g.hands[seat]
	}
	return g.hands[seat] & (pipTiles[g.end[0]] | pipTiles[g.end[1]])
}

// totalAfter is the ends' count if tile t were laid on end e; t must fit e.
func (g *sim) totalAfter(t, e int) int {
	if g.lineLen == 0 {
		return int(tilePips[t])
	}
	other := int(tileLo[t]) + int(tileHi[t]) - int(g.end[e])
	v := other
	if tileLo[t] == tileHi[t] {
		v *= 2
	}
	return v + g.endValue(1-e)
}

// scoreOf is what a total scores: itself when a positive multiple of five.
func scoreOf(total int) int {
	if total > 0 && total%5 == 0 {
		return total
	}
	return 0
}

// play lays tile t on end e for the seat to move and applies everything that follows.
func (g *sim) play(t, e int) {
	seat := int(g.turn)
	g.hands[seat] &^= 1 << t
	total := g.totalAfter(t, e)
	lo, hi := tileLo[t], tileHi[t]
	if g.lineLen == 0 {
		g.end = [2]uint8{lo, hi}
		g.dbl = [2]bool{lo == hi, lo == hi}
	} else {
		g.end[e] = lo + hi - g.end[e]
		g.dbl[e] = lo == hi
	}
	g.lineLen++
	g.passes = 0
	side := int(g.sideOf[seat])
	if g.award(side, scoreOf(total)) {
		return
	}
	if g.hands[seat] == 0 {
		g.goOut(seat)
		return
	}
	if g.blocked() {
		g.block()
		return
	}
	g.turn = uint8((seat + 1) % int(g.players))
}

// draw moves the front of the boneyard into the hand of the seat to move; the turn stays.
func (g *sim) draw() {
	g.hands[g.turn] |= 1 << g.bone[g.boneAt]
	g.boneAt++
	if g.blocked() {
		g.block()
	}
}

// pass moves the turn on. A full round of passes can only come from a state that was blocked
// already, which the domain never hands over, so it is scored as blocked rather than looping.
func (g *sim) pass() {
	g.passes++
	g.turn = uint8((int(g.turn) + 1) % int(g.players))
	if int(g.passes) >= int(g.players) {
		g.block()
	}
}

// award adds points to side and reports whether that ended the match (docs/rules.md, rule 11).
func (g *sim) award(side, points int) bool {
	g.gained[side] += int32(points)
	g.score[side] += int32(points)
	if points > 0 && g.score[side] >= g.target {
		g.state, g.winner = matchOver, int8(side)
		return true
	}
	return false
}

// blocked says whether the boneyard is empty and no seat can play (docs/rules.md, rule 10).
func (g *sim) blocked() bool {
	if g.boneAt < g.boneEnd {
		return false
	}
	for s := 0; s < int(g.players); s++ {
		if g.playable(s) != 0 {
			return false
		}
	}
	return true
}

// goOut scores a domino: every opponent's pips rounded to five, each on its own (docs/rules.md, rule 9).
func (g *sim) goOut(seat int) {
	side := int(g.sideOf[seat])
	bonus := 0
	for s := 0; s < int(g.players); s++ {
		if int(g.sideOf[s]) != side {
			bonus += domain.Round5(maskPips(g.hands[s]))
		}
	}
	g.outSeat = int8(seat)
	if g.award(side, bonus) {
		return
	}
	g.state, g.winner = wentOut, int8(side)
}

// block scores a blocked hand: strictly fewest pips wins the others' rounded pips less its own.
func (g *sim) block() {
	var pips [4]int
	for s := 0; s < int(g.players); s++ {
		pips[g.sideOf[s]] += maskPips(g.hands[s])
	}
	best, tie := 0, false
	for i := 1; i < int(g.sides); i++ {
		switch {
		case pips[i] < pips[best]:
			best, tie = i, false
		case pips[i] == pips[best]:
			tie = true
		}
	}
	g.state, g.winner = blockedOut, -1
	if tie {
		return
	}
	points := -domain.Round5(pips[best])
	for i := 0; i < int(g.sides); i++ {
		if i != best {
			points += domain.Round5(pips[i])
		}
	}
	if g.award(best, points) {
		return
	}
	g.winner = int8(best)
}

// step makes the seat to move act by the rollout policy: play its greedy choice, else draw,
// else pass.
func (g *sim) step() {
	if m := g.playable(int(g.turn)); m != 0 {
		var t, e int
		if g.look {
			t, e = g.lookaheadPick(m)
		} else {
			t, e = g.greedyPick(m)
		}
		g.play(t, e)
		return
	}
	if g.boneAt < g.boneEnd {
		g.draw()
		return
	}
	g.pass()
}

// rollout plays the hand to its end.
func (g *sim) rollout() {
	for g.state == live {
		g.step()
	}
}

// greedyPick is the rollout policy: most points now, then the heaviest tile, so a hand that
// ends early leaves few pips behind.
func (g *sim) greedyPick(m uint32) (tile, end int) {
	best := -1
	for ; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for e := 0; e < 2; e++ {
			if g.lineLen > 0 && !fitsEnd(t, g.end[e]) {
				continue
			}
			v := scoreOf(g.totalAfter(t, e))*16 + int(tilePips[t])
			if v > best {
				best, tile, end = v, t, e
			}
			if g.lineLen == 0 {
				break // a lead has one placement
			}
		}
	}
	return tile, end
}

func fitsEnd(t int, pip uint8) bool { return tileLo[t] == pip || tileHi[t] == pip }
