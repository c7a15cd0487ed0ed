package bot

import (
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// Tiles inside the bots are indexes 0..27 (domain.Tile.Index) and sets of tiles are uint32
// bitmasks, so a hand, the unseen tiles or "every tile showing a 5" is one machine word and the
// rollouts never allocate.

const nTiles = domain.SetSize

const allTiles = uint32(1)<<nTiles - 1

var (
	tileOf   [nTiles]domain.Tile
	tileLo   [nTiles]uint8
	tileHi   [nTiles]uint8
	tilePips [nTiles]uint8
	pipTiles [domain.MaxPip + 1]uint32 // the tiles showing pip p on either half
	doubles  [domain.MaxPip + 1]uint32 // doubles[p]: the doubles strictly higher than p-p
)

func init() {
	for _, t := range domain.FullSet() {
		i := t.Index()
		tileOf[i] = t
		tileLo[i], tileHi[i] = uint8(t.Low()), uint8(t.High())
		tilePips[i] = uint8(t.Pips())
		pipTiles[t.Low()] |= 1 << i
		pipTiles[t.High()] |= 1 << i
	}
	for p := 0; p <= domain.MaxPip; p++ {
		for q := p + 1; q <= domain.MaxPip; q++ {
			doubles[p] |= 1 << mustIndex(q, q)
		}
	}
	initScoring()
}

func mustIndex(a, b int) int {
	t, err := domain.NewTile(a, b)
	if err != nil {
		panic(err)
	}
	return t.Index()
}

// maskOf is the set holding tiles.
func maskOf(tiles []domain.Tile) uint32 {
	var m uint32
	for _, t := range tiles {
		m |= 1 << t.Index()
	}
	return m
}

// maskPips adds the pips of a set.
func maskPips(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n += int(tilePips[bits.TrailingZeros32(m)])
	}
	return n
}

// nthTile returns the index of the k-th (0-based) tile of m; m must hold more than k tiles.
func nthTile(m uint32, k int) int {
	for ; k > 0; k-- {
		m &= m - 1
	}
	return bits.TrailingZeros32(m)
}

// randomTile picks a tile of m uniformly; m must not be empty.
func randomTile(r *rng, m uint32) int {
	return nthTile(m, r.intn(bits.OnesCount32(m)))
}
