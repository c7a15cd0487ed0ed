package bot

import (
	"math/bits"
	"slices"
)

// sampler deals the tiles a seat cannot see into the other hands and the boneyard, consistently
// with its knowledge: each hidden slot gets a tile it allows, the rest goes to the boneyard in
// random order.
type sampler struct {
	k      *knowledge
	model  *choiceModel // weights deals by the opponents' past choices; nil for none
	unseen uint32
	others []uint8   // the seats whose hands are hidden
	slots  []slotRef // most constrained first, so the scarce tiles go where they must
	held   []int8    // scratch for deal
}

type slotRef struct {
	seat    uint8
	id      int8
	allowed uint32
}

func newSampler(k *knowledge) *sampler {
	s := &sampler{k: k, unseen: k.unseen}
	for seat := 0; seat < k.players; seat++ {
		if seat == k.me {
			continue
		}
		s.others = append(s.others, uint8(seat))
		for i, f := range k.slots[seat] {
			s.slots = append(s.slots, slotRef{seat: uint8(seat), id: k.ids[seat][i], allowed: k.unseen &^ f})
		}
	}
	slices.SortStableFunc(s.slots, func(a, b slotRef) int {
		return bits.OnesCount32(a.allowed) - bits.OnesCount32(b.allowed)
	})
	return s
}

// deal fills the hidden hands and the boneyard of g. Slots are filled scarcest first, each
// with a random tile it allows; when none is left, an augmenting path moves earlier slots to
// other allowed tiles to make room, so a consistent deal is always found when one exists
// (the constraints are sound, so the real deal is one). The result is not exactly uniform
// over consistent deals, but close, and cheap. It returns the deal's weight under the choice
// model, 1 without one.
func (s *sampler) deal(r *rng, g *sim) float64 {
	var owner [nTiles]int8 // slot holding each tile, -1 for none
	for i := range owner {
		owner[i] = -1
	}
	if len(s.held) < len(s.slots) {
		s.held = make([]int8, len(s.slots))
	}
	held := s.held[:len(s.slots)] // tile of each slot, -1 for none; reused across deals
	for i := range held {
		held[i] = -1
	}
	free := s.unseen
	for i, sl := range s.slots {
		if m := free & sl.allowed; m != 0 {
			t := randomTile(r, m)
			owner[t], held[i] = int8(i), int8(t)
			free &^= 1 << t
			continue
		}
		var seen uint32
		if !s.augment(i, &owner, held, &free, &seen) && free != 0 {
			// No consistent deal: only possible if the view contradicts itself. Take any tile.
			t := randomTile(r, free)
			owner[t], held[i] = int8(i), int8(t)
			free &^= 1 << t
		}
	}
	for _, seat := range s.others {
		g.hands[seat] = 0
	}
	for i, sl := range s.slots {
		if held[i] >= 0 {
			g.hands[sl.seat] |= 1 << held[i]
		}
	}
	g.shuffleBone(r, free)
	if s.model == nil {
		return 1
	}
	return s.model.weight(s, held)
}

// shuffleBone makes tiles the boneyard of g, in random order.
func (g *sim) shuffleBone(r *rng, tiles uint32) {
	n := int8(0)
	for ; tiles != 0; n++ {
		t := randomTile(r, tiles)
		g.bone[n] = uint8(t)
		tiles &^= 1 << t
	}
	g.boneAt, g.boneEnd = 0, n
}

// augment finds slot i a tile by moving the holder of one of its allowed tiles to another
// tile that holder allows, recursively (Kuhn's algorithm over at most 21 slots).
func (s *sampler) augment(i int, owner *[nTiles]int8, held []int8, free, seen *uint32) bool {
	for m := s.slots[i].allowed &^ *seen; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		*seen |= 1 << t
		j := int(owner[t])
		if j < 0 { // cannot happen: free tiles were tried first; kept for safety
			continue
		}
		if f := *free & s.slots[j].allowed; f != 0 {
			u := bits.TrailingZeros32(f)
			owner[u], held[j] = int8(j), int8(u)
			*free &^= 1 << u
		} else if !s.augment(j, owner, held, free, seen) {
			continue
		}
		owner[t], held[i] = int8(i), int8(t)
		return true
	}
	return false
}
