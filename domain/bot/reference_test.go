package bot

import (
	"context"
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// reference is the yardstick the expert is measured against (docs/bots.md, "Against a plain
// Monte Carlo player"): plain perfect-information Monte Carlo, written apart from the expert's
// search so that a flaw in the one does not hide in the other. For each decision it shuffles
// the tiles its seat cannot see (neither in its hand nor on the line) uniformly and deals them
// into the other hands, each of the size the view shows, and the rest into the boneyard; plays
// each legal move in that deal and finishes the hand with greedy play for every seat (most
// points now, then the heaviest tile); and takes the move with the best mean margin of its
// side over the best other side to the end of the hand. It ignores the history and the match
// score. It shares only the rules (sim, which sim_test.go checks move for move against
// domain.Match) with the expert. It is not a strategy a seat may name.
type reference struct {
	seed     uint64
	playouts int // hands played out per decision, shared among the legal moves
}

// refSalt keeps the reference's random stream apart from the strategies' given the same seed.
const refSalt = 0x7265_6665_7265_6e63

// Choose returns the legal move with the best mean margin over the playouts.
func (p *reference) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, err
	}
	if len(v.LegalMoves) == 0 {
		return domain.Move{}, errNoMoves
	}
	mine := maskOf(v.Hand)
	var pool [nTiles]uint8
	n := 0
	for m := allTiles &^ mine &^ maskOf(lineTiles(v.Line)); m != 0; m &= m - 1 {
		pool[n] = uint8(bits.TrailingZeros32(m))
		n++
	}
	base := seatSim(v, mine, noTarget)
	base.look = false
	side := v.Table.SideOf(v.Seat)
	sum := make([]float64, len(v.LegalMoves))
	runs := make([]int, len(v.LegalMoves))
	r := viewRNG(p.seed^refSalt, v)
	for done := 0; done < p.playouts; {
		world := base
		for i := n - 1; i > 0; i-- { // Fisher-Yates
			j := r.intn(i + 1)
			pool[i], pool[j] = pool[j], pool[i]
		}
		at := 0
		for seat, size := range v.HandSizes {
			if seat == v.Seat || seat >= len(world.hands) {
				continue
			}
			world.hands[seat] = 0
			for ; size > 0 && at < n; size-- {
				world.hands[seat] |= 1 << pool[at]
				at++
			}
		}
		world.boneAt, world.boneEnd = 0, int8(copy(world.bone[:], pool[at:n]))
		for i, lm := range v.LegalMoves {
			if done == p.playouts {
				break
			}
			g := world
			g.apply(move{action: lm.Action, tile: lm.Tile.Index(), end: int(lm.End)})
			g.rollout()
			sum[i] += float64(margin(&g, side))
			runs[i]++
			done++
		}
	}
	bestAt, bestMean := 0, 0.0
	for i := range sum {
		mean := sum[i] / float64(max(runs[i], 1))
		if i == 0 || mean > bestMean {
			bestAt, bestMean = i, mean
		}
	}
	return v.LegalMoves[bestAt].Move(), nil
}
