package bot

import (
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// rng is splitmix64: tiny, fast, and good enough for sampling hands. Strategies build one per
// decision from a seed and the view, which is what makes them repeatable and lock-free.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n) by Lemire's multiply-shift; the bias is below 2^-32 for the
// small n used here.
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// fnv is FNV-1a over 64 bits, used to fingerprint a view.
type fnv uint64

func newFNV(seed uint64) fnv {
	h := fnv(14695981039346656037)
	h.word(seed)
	return h
}

func (h *fnv) byte(b byte) {
	*h ^= fnv(b)
	*h *= 1099511628211
}

func (h *fnv) word(w uint64) {
	for i := 0; i < 8; i++ {
		h.byte(byte(w >> (8 * i)))
	}
}

func (h *fnv) int(n int) { h.word(uint64(n)) }

func (h *fnv) tile(t domain.Tile) { h.byte(byte(t.Index())) }

// viewRNG seeds a generator from seed and everything in the view that can differ between two
// decisions, so equal views give equal moves and different views are decorrelated.
func viewRNG(seed uint64, v domain.SeatView) rng {
	h := newFNV(seed)
	h.int(v.Seat)
	h.int(v.HandNumber)
	h.int(v.Target)
	h.int(v.Boneyard)
	for _, s := range v.Scores {
		h.int(s)
	}
	for _, t := range v.Hand {
		h.tile(t)
	}
	for _, l := range v.Line.Tiles() {
		h.byte(byte(l.Left*8 + l.Right))
	}
	for _, e := range v.History {
		hashEvent(&h, e)
	}
	return rng{s: uint64(h)}
}

// hashEvent adds the public content of one event. Only fields a seat may see are read.
func hashEvent(h *fnv, e domain.Event) {
	for i := 0; i < len(e.Type); i++ {
		h.byte(e.Type[i])
	}
	switch d := e.Data.(type) {
	case domain.HandStarted:
		h.int(d.Leader)
		h.int(d.Redeals)
	case domain.TilePlayed:
		h.int(d.Seat)
		h.tile(d.Tile)
		h.byte(byte(d.End))
	case domain.TileDrawn:
		h.int(d.Seat)
		if d.Tile != nil {
			h.tile(*d.Tile)
		}
	case domain.TurnPassed:
		h.int(d.Seat)
	}
}
