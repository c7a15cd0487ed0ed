package bot

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// TestKnowledgeIsSound checks, from every seat at every turn of many matches, that what a seat
// infers about the hidden tiles admits the real deal: its counts agree with the view, and each
// other seat's real tiles fit its slots. Since the sampler draws only from what the slots
// allow, this is what makes the expert's samples include the truth.
func TestKnowledgeIsSound(t *testing.T) {
	matches := bottest.Size(12, 300)
	players := []domain.Strategy{NewGreedy(), NewRandom(7)}
	constrained := 0
	for _, c := range bottest.Shapes() {
		for i := 0; i < matches; i++ {
			seed := bottest.Seed(fmt.Sprintf("infer/%s/%d", c, i))
			bottest.Play(t, bottest.Spec(c, 0), seed, players, func(m *domain.Match, hands domain.HandLog) bool {
				constrained += checkKnowledge(t, m, hands)
				return true
			})
		}
	}
	if constrained == 0 {
		t.Fatal("no seat ever inferred anything; the void and lead rules are not being read")
	}
}

// checkKnowledge checks every seat's inference against the true hands, and counts the slots
// that carry a constraint.
func checkKnowledge(t *testing.T, m *domain.Match, hands domain.HandLog) int {
	t.Helper()
	n := m.Table().Players()
	truth := make([]uint32, n)
	for s := range truth {
		truth[s] = maskOf(m.SeatView(s, hands).Hand)
	}
	constrained := 0
	for me := 0; me < n; me++ {
		v := m.SeatView(me, hands)
		k := read(v)
		if k.patched {
			t.Fatalf("seat %d: history disagrees with the counts: slots %v, view sizes %v, boneyard %d", me, k.slots, v.HandSizes, v.Boneyard)
		}
		for s := 0; s < n; s++ {
			if s == me {
				continue
			}
			if truth[s]&^k.unseen != 0 {
				t.Fatalf("seat %d thinks seat %d's tiles are seen", me, s)
			}
			if !fits(truth[s], k.slots[s]) {
				t.Fatalf("seat %d's slots for seat %d (%v) rule out its real hand %v", me, s, k.slots[s], tilesOf(truth[s]))
			}
			for _, f := range k.slots[s] {
				if f != 0 {
					constrained++
				}
			}
		}
	}
	return constrained
}

// fits reports whether the tiles can be given one to each slot, each slot getting a tile it
// does not forbid: a bipartite matching by augmenting paths (at most a dozen tiles).
func fits(tiles uint32, slots []uint32) bool {
	if bits.OnesCount32(tiles) != len(slots) {
		return false
	}
	owner := map[int]int{} // tile -> slot
	var try func(slot int, seen map[int]bool) bool
	try = func(slot int, seen map[int]bool) bool {
		for m := tiles &^ slots[slot]; m != 0; m &= m - 1 {
			t := bits.TrailingZeros32(m)
			if seen[t] {
				continue
			}
			seen[t] = true
			if o, taken := owner[t]; !taken || try(o, seen) {
				owner[t] = slot
				return true
			}
		}
		return false
	}
	for s := range slots {
		if !try(s, map[int]bool{}) {
			return false
		}
	}
	return true
}

// tilesOf lists the tiles of a set, for failure messages.
func tilesOf(m uint32) []domain.Tile {
	var out []domain.Tile
	for ; m != 0; m &= m - 1 {
		out = append(out, tileOf[bits.TrailingZeros32(m)])
	}
	return out
}

// TestSamplerRespectsKnowledge deals many samples from real positions and checks each one: the
// hidden hands have the right sizes, honor the slots, and with the boneyard use exactly the
// unseen tiles.
func TestSamplerRespectsKnowledge(t *testing.T) {
	r := rng{s: 3}
	positions := 0
	for _, c := range bottest.Shapes() {
		seed := bottest.Seed("sampler/" + c.String())
		bottest.Play(t, bottest.Spec(c, 0), seed, []domain.Strategy{NewGreedy()}, func(m *domain.Match, hands domain.HandLog) bool {
			v := m.SeatView(m.Turn(), hands)
			k := read(v)
			smp := newSampler(k)
			base := seatSim(v, k.mine, v.Target)
			positions++
			for i := 0; i < 20; i++ {
				g := base
				smp.deal(&r, &g)
				checkSample(t, k, &g)
			}
			return true
		})
	}
	if positions < 50 {
		t.Fatalf("only %d positions checked", positions)
	}
}

// checkSample checks one sampled deal against what the seat knows.
func checkSample(t *testing.T, k *knowledge, g *sim) {
	t.Helper()
	var used uint32
	for i := g.boneAt; i < g.boneEnd; i++ {
		used |= 1 << g.bone[i]
	}
	if int(g.boneEnd-g.boneAt) != k.bone {
		t.Fatalf("boneyard of %d, want %d", g.boneEnd-g.boneAt, k.bone)
	}
	for s := 0; s < k.players; s++ {
		if s == k.me {
			if g.hands[s] != k.mine {
				t.Fatal("the sampler changed the seat's own hand")
			}
			continue
		}
		if used&g.hands[s] != 0 || !fits(g.hands[s], k.slots[s]) {
			t.Fatalf("seat %d got %v, slots %v", s, tilesOf(g.hands[s]), k.slots[s])
		}
		used |= g.hands[s]
	}
	if used != k.unseen {
		t.Fatalf("sample uses %v, unseen is %v", tilesOf(used), tilesOf(k.unseen))
	}
}
