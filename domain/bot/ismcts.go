package bot

import (
	"context"
	"math"
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// isNode is a node of an information-set tree: the moves made since the root as the root's
// seat sees them (its own draws by the tile drawn, the other seats' draws as one move).
type isNode struct {
	key    int16
	visits int32
	avail  int32
	sum    float64 // value to the root's side, summed over the visits
	kids   []int32
}

const (
	keyPass      = 60
	keyOtherDraw = 61
	keyOwnDraw   = 64 // + the tile drawn
)

// legalKeys lists the moves of the seat to move in g, with their keys.
func legalKeys(g *sim, me int, out []move, keys []int16) ([]move, []int16) {
	out, keys = out[:0], keys[:0]
	seat := int(g.turn)
	if m := g.playable(seat); m != 0 {
		for ; m != 0; m &= m - 1 {
			t := bits.TrailingZeros32(m)
			for e := 0; e < 2; e++ {
				if g.lineLen > 0 && !fitsEnd(t, g.end[e]) {
					continue
				}
				out, keys = append(out, move{action: domain.ActionPlay, tile: t, end: e}), append(keys, int16(t*2+e))
				if g.lineLen == 0 {
					break
				}
			}
		}
		return out, keys
	}
	if g.boneAt < g.boneEnd {
		k := int16(keyOtherDraw)
		if seat == me {
			k = keyOwnDraw + int16(g.bone[g.boneAt])
		}
		return append(out, move{action: domain.ActionDraw}), append(keys, k)
	}
	return append(out, move{action: domain.ActionPass}), append(keys, keyPass)
}

// ismcts values the root's candidates by single-observer information-set Monte Carlo tree
// search: each iteration samples a deal, descends the tree by UCB among the moves legal in
// that deal, adds one node and plays the rest out by the policy. values are the candidates'
// visit counts.
func (s *study) ismcts(ctx context.Context, r *rng, me, side int, c float64) ([]float64, int, error) {
	nodes := make([]isNode, 1, s.budget+1)
	var buf []move
	var keys []int16
	path := make([]int32, 0, 64)
	world := new(sim)
	done := 0
	for tries := 0; done < s.budget && tries < 50*s.budget; tries++ {
		if tries%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, done, err
			}
		}
		*world = s.base
		w := s.deal(r, world)
		if w <= 0 || float64(r.next()>>11)/(1<<53) > w {
			continue
		}
		done++
		g := *world
		path = append(path[:0], 0)
		at := int32(0)
		for g.state == live {
			buf, keys = legalKeys(&g, me, buf, keys)
			if at == 0 {
				buf, keys = s.rootMoves(buf, keys)
			}
			pick, expand := -1, false
			var logN float64
			for i, k := range keys {
				ch := nodes[at].child(nodes, k)
				if ch < 0 {
					if !expand {
						pick, expand = i, true
					}
					continue
				}
				nodes[ch].avail++
			}
			if !expand {
				sign := 1.0
				if int(g.sideOf[g.turn]) != side {
					sign = -1
				}
				bestV := math.Inf(-1)
				for i, k := range keys {
					ch := nodes[at].child(nodes, k)
					n := &nodes[ch]
					logN = math.Log(float64(n.avail))
					v := sign*n.sum/float64(n.visits) + c*math.Sqrt(logN/float64(n.visits))
					if v > bestV {
						bestV, pick = v, i
					}
				}
			}
			g.apply(buf[pick])
			if expand {
				nodes = append(nodes, isNode{key: keys[pick], avail: 1})
				id := int32(len(nodes) - 1)
				nodes[at].kids = append(nodes[at].kids, id)
				path = append(path, id)
				break
			}
			at = nodes[at].child(nodes, keys[pick])
			path = append(path, at)
		}
		s.finish(&g)
		v := s.score(&g) / equityScale
		for _, id := range path {
			nodes[id].visits++
			nodes[id].sum += v
		}
	}
	values := make([]float64, len(s.cands))
	for i, cd := range s.cands {
		if ch := nodes[0].child(nodes, candKey(cd)); ch >= 0 {
			values[i] = float64(nodes[ch].visits) + nodes[ch].sum/float64(nodes[ch].visits)*1e-3
		}
	}
	return values, done, nil
}

// rootMoves keeps the candidates only, at the root, in their order.
func (s *study) rootMoves(buf []move, keys []int16) ([]move, []int16) {
	buf, keys = buf[:0], keys[:0]
	for _, c := range s.cands {
		buf, keys = append(buf, c), append(keys, candKey(c))
	}
	return buf, keys
}

func candKey(c move) int16 {
	switch c.action {
	case domain.ActionPlay:
		return int16(c.tile*2 + c.end)
	case domain.ActionDraw:
		return -2
	}
	return -3
}

func (n *isNode) child(nodes []isNode, k int16) int32 {
	for _, id := range n.kids {
		if nodes[id].key == k {
			return id
		}
	}
	return -1
}
