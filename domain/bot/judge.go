package bot

import (
	"context"

	"github.com/allfives/allfives/domain"
)

// This file opens the expert's evaluation to a game review (docs/review.md): the value of
// every candidate, not only the best one. The strategies do not call it, so how they play is
// unchanged.

// Values is the expert's value of every move of v.LegalMoves, in that order: the expected
// outcome for the seat's side in points, as the expert scores a playout (the margin to the
// end of the hand over the best opposing side, plus or minus 200 when the match is won or
// lost on the way, or 3 for winning the lead of the next hand). It is estimated from v alone,
// with the expert's inference and its budget of rollouts, except when nothing is hidden (two
// players, the boneyard empty): then every candidate is searched exactly, each in a full
// window, and exact reports it (false when a search hit its node cap and finished by a
// rollout).
func (x *Expert) Values(ctx context.Context, v domain.SeatView) (values []float64, exact bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if len(v.LegalMoves) == 0 {
		return nil, false, errNoMoves
	}
	if v.Table.Players() == 2 && v.Boneyard == 0 {
		k := read(v)
		world := seatSim(v, k.mine, v.Target)
		world.hands[1-k.me] = k.unseen
		world.boneAt, world.boneEnd = 0, 0
		world.look = true
		values, exact = solveEach(world, movesOf(v.LegalMoves, identity(len(v.LegalMoves))), v.Table.SideOf(v.Seat), exactNodes)
		return values, exact, nil
	}
	y := *x
	y.opts.exact = 0      // the exact pass above replaces it, in a full window
	y.opts.equity = false // a review's values are in points, as the exact pass's are
	order, vals, _, err := y.evaluate(ctx, v)
	if err != nil {
		return nil, false, err
	}
	values = make([]float64, len(vals))
	for i, li := range order {
		values[li] = vals[i]
	}
	return values, false, nil
}

// Hindsight is the value of every move of v.LegalMoves, in that order, knowing the whole
// deal: hands[s] is seat s's tiles now and boneyard the tiles left in draw order. With two
// sides it searches exactly, each candidate with nodes positions at most (past them a
// rollout finishes the line, and exact is false); with three or four sides, where one side's
// best is no longer the others' worst, each candidate is played out once by the lookahead
// policy with every seat seeing every hand.
func Hindsight(v domain.SeatView, hands [][]domain.Tile, boneyard []domain.Tile, nodes int) (values []float64, exact bool) {
	world := seatSim(v, maskOf(v.Hand), v.Target)
	for s := 0; s < v.Table.Players() && s < len(hands); s++ {
		world.hands[s] = maskOf(hands[s])
	}
	for i, t := range boneyard {
		if i < nTiles {
			world.bone[i] = uint8(t.Index())
		}
	}
	world.boneAt, world.boneEnd = 0, int8(min(len(boneyard), nTiles))
	world.look = true
	cands := movesOf(v.LegalMoves, identity(len(v.LegalMoves)))
	side := v.Table.SideOf(v.Seat)
	if v.Table.Sides() == 2 {
		return solveEach(world, cands, side, nodes)
	}
	values = make([]float64, len(cands))
	for i, c := range cands {
		g := world
		g.apply(c)
		g.rollout()
		values[i] = float64(outcome(&g, side))
	}
	return values, false
}

// solveEach searches every candidate from world exactly for side, each in a full window with
// its own cap of nodes, so each value is exact rather than a bound.
func solveEach(world sim, cands []move, side, nodes int) ([]float64, bool) {
	values := make([]float64, len(cands))
	stack := make([]sim, hindsightDepth)
	exact := true
	for i, c := range cands {
		g := world
		g.apply(c)
		left := nodes
		values[i] = float64(g.solve(side, -1<<30, 1<<30, &left, stack))
		exact = exact && left > 0
	}
	return values, exact
}

// hindsightDepth is the scratch a search with draws needs: every play, draw and pass left.
const hindsightDepth = 3 * nTiles

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
