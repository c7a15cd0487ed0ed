package bot

import (
	"math"
	"math/bits"
)

// trail remembers, for each hidden slot of knowledge, an identity that outlives its place in
// the slot list, and for each play an opponent made, which slots it held then. A sampled deal
// gives every live slot a tile and every played slot was the tile played, so the deal tells
// what each opponent held at each of its past decisions, and so how likely its choice was.
type trail struct {
	ids     [4][]int8    // identity of each slot, parallel to knowledge.slots
	next    int8         // identities handed out so far
	played  [maxIDs]int8 // tile of each slot that was played, -1 for a live one
	choices []pastChoice // the other seats' plays this hand, oldest first
}

// maxIDs bounds slot identities: one per tile dealt to another seat or drawn by one, so at
// most the 28 tiles of the set.
const maxIDs = 32

// pastChoice is one play by another seat: the ends it faced, the slots it held and what its
// play scored.
type pastChoice struct {
	before openEnds
	alive  uint32 // identities of the seat's slots at that moment
	points int
}

// addSlot gives seat a new, unconstrained slot.
func (k *knowledge) addSlot(seat int) {
	k.slots[seat] = append(k.slots[seat], 0)
	id := k.next
	if k.next < maxIDs-1 {
		k.next++
		k.played[id] = -1
	}
	k.ids[seat] = append(k.ids[seat], id)
}

// dropID removes the identity of seat's slot at index at, which played tile t.
func (k *knowledge) dropID(seat, at, t int) {
	id := k.ids[seat][at]
	k.played[id] = int8(t)
	k.ids[seat] = append(k.ids[seat][:at], k.ids[seat][at+1:]...)
}

// noteChoice records seat's play of t on end e of open, before the slot is removed.
func (k *knowledge) noteChoice(seat int, open openEnds, t, e int) {
	if seat == k.me || seat < 0 || seat >= len(k.slots) {
		return
	}
	var alive uint32
	for _, id := range k.ids[seat] {
		alive |= 1 << id
	}
	k.choices = append(k.choices, pastChoice{open, alive, scoreOf(open.after(t, e).total())})
}

// choiceModel prices a past play that scored less than the player's best: a deal in which the
// player passed up r points is weighted by penalty[r], exp(-beta*r). Players here mostly take
// the points in front of them, so a deal where a past play gave up many is unlikely.
type choiceModel struct {
	penalty [64]float64
}

func newChoiceModel(beta float64) *choiceModel {
	m := &choiceModel{}
	for r := range m.penalty {
		m.penalty[r] = math.Exp(-beta * float64(r))
	}
	return m
}

// weight is how likely the deal (the tile held by each slot of s) made the past choices.
func (m *choiceModel) weight(s *sampler, held []int8) float64 {
	tiles := s.k.played
	for i, sl := range s.slots {
		if held[i] >= 0 {
			tiles[sl.id] = held[i]
		}
	}
	w := 1.0
	for _, c := range s.k.choices {
		var hand uint32
		for a := c.alive; a != 0; a &= a - 1 {
			if t := tiles[bits.TrailingZeros32(a)]; t >= 0 {
				hand |= 1 << t
			}
		}
		if best, _ := c.before.bestScore(hand); best > c.points {
			w *= m.penalty[min(best-c.points, len(m.penalty)-1)]
		}
	}
	return w
}
