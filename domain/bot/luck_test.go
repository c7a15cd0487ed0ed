package bot

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/allfives/allfives/domain"
)

// This file is the luck term of the duel harness's variance-reduced estimate (AIVAT-style
// control variates; docs/bots.md, "A cheaper measurement"). In a two-player match the only
// chance events are the deals: the boneyard's order is fixed when a hand is dealt, and both
// players decide deterministically from their views. The luck of a deal to seat 0 is what the
// deal is worth to it, V(deal), less what a deal is worth on average from the same match
// score and lead, E[V]. Its expected value is zero given everything before the deal, whatever
// V is, so subtracting the sum of a match's deal lucks from its result leaves the mean
// unchanged; the better V follows the result, the less variance is left. With the V below,
// duplicate matches keep about all their variance (decision 022 of docs/decisions): a deal
// says little of how a hand goes, and duplicate play already cancels what it says.

// luckDeals is how many random deals estimate E[V] for each real one. The estimate is
// unbiased at any count (the random deals are drawn apart from the real one); more of them
// only take a little noise off the term.
const luckDeals = 32

// luckPlayouts is how many playouts value one deal, and luckWild the chance in ten that a
// playout's player plays a random tile that fits rather than the greedy one. The hand a deal
// leads to under the duel's players is hard to foresee from one deterministic playout (its
// margin correlates 0.15 to 0.25 with the real hand's); the mean over playouts with some
// randomness smooths that over, at about 0.34.
const (
	luckPlayouts = 32
	luckWild     = 3
)

// dealWorth is V: seat 0's chance of winning the match, from 0 to 1, after the hand of g
// (dealt, seat g.turn to lead) is played out, read off match equity (equity.go) at the
// hand's end and averaged over luckPlayouts playouts of mostly greedy play. lead is the
// double that must open the hand, or -1.
func dealWorth(g sim, lead int, r *rng) float64 {
	g.look = false
	if lead >= 0 {
		g.play(lead, 0)
	}
	sum := 0.0
	for range luckPlayouts {
		h := g
		for h.state == live {
			m := h.playable(int(h.turn))
			if m == 0 || r.intn(10) >= luckWild {
				h.step()
				continue
			}
			t, e := randomTile(r, m), 0
			if h.lineLen > 0 && !fitsEnd(t, h.end[0]) {
				e = 1
			}
			h.play(t, e)
		}
		e := equityValue(&h, 0) - margin(&h, 0)
		sum += (1 + float64(e)/equityScale) / 2
	}
	return sum / luckPlayouts
}

// dealLuck is the luck to seat 0 of the hand d dealt at the match's present score: its worth
// less the mean worth of luckDeals random deals under the same lead rule, drawn from a stream
// of their own named by seed and the hand.
func dealLuck(m *domain.Match, seed domain.Seed, d domain.HandStarted) float64 {
	g := newSim(m.Table(), m.Scores(), m.Target())
	for s, h := range d.Hands {
		g.hands[s] = maskOf(h)
	}
	for i, b := range d.Boneyard {
		g.bone[i] = uint8(b.Index())
	}
	g.boneEnd = int8(len(d.Boneyard))
	g.turn = uint8(d.Leader)
	highest := d.Lead == domain.LeadHighestDouble
	lead := -1
	if highest {
		lead = highestDouble(g.hands[d.Leader])
	}
	r := luckRNG(seed, d.Hand)
	worth := dealWorth(g, lead, &r)
	size := m.Table().HandSize()
	sum := 0.0
	for range luckDeals {
		h := g
		leader, lead := randomDeal(&r, &h, size, highest)
		if !highest {
			leader, lead = d.Leader, -1
		}
		h.turn = uint8(leader)
		sum += dealWorth(h, lead, &r)
	}
	return worth - sum/luckDeals
}

// randomDeal deals g's two hands of size tiles and its boneyard uniformly, again until a
// double is dealt when highest is set (as the referee redeals), and returns the holder of
// the highest double and that double (-1, -1 when none was dealt and highest is not set).
func randomDeal(r *rng, g *sim, size int, highest bool) (leader, lead int) {
	var deck [nTiles]uint8
	for {
		for i := range deck {
			deck[i] = uint8(i)
		}
		for i := nTiles - 1; i > 0; i-- {
			j := r.intn(i + 1)
			deck[i], deck[j] = deck[j], deck[i]
		}
		g.hands[0], g.hands[1] = 0, 0
		for i := range 2 * size {
			g.hands[i/size] |= 1 << deck[i]
		}
		g.boneAt, g.boneEnd = 0, int8(copy(g.bone[:], deck[2*size:]))
		leader, lead = -1, -1
		for s := range 2 {
			if t := highestDouble(g.hands[s]); t >= 0 && (lead < 0 || tileLo[t] > tileLo[lead]) {
				leader, lead = s, t
			}
		}
		if lead >= 0 || !highest {
			return leader, lead
		}
	}
}

// highestDouble is the index of the highest double in hand, -1 for none.
func highestDouble(hand uint32) int {
	best := -1
	for p := 0; p <= domain.MaxPip; p++ {
		if t := mustIndex(p, p); hand&(1<<t) != 0 {
			best = t
		}
	}
	return best
}

// luckRNG is the stream of the random deals of hand number hand of the match dealt from seed.
func luckRNG(seed domain.Seed, hand int) rng {
	h := sha256.New()
	h.Write([]byte("allfives/duel-luck/v1/"))
	h.Write(seed[:])
	binary.Write(h, binary.BigEndian, uint64(hand))
	return rng{s: binary.BigEndian.Uint64(h.Sum(nil))}
}
