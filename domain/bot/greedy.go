package bot

import (
	"context"
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// Greedy takes the play that scores the most points now. Ties go to the heaviest tile, since
// pips left in hand feed the opponents' bonus, and then to the play leaving ends the next
// seat is least likely to match (judged from the tiles it cannot see and the next seat's
// draws and passes).
type Greedy struct{}

// NewGreedy returns the greedy player. It has no randomness, so it needs no seed.
func NewGreedy() Greedy { return Greedy{} }

// Choose picks the best play by points, then pips, then how hard the ends are to follow.
func (Greedy) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, err
	}
	if mv, ok, err := onlyMove(v); ok || err != nil {
		return mv, err
	}
	return v.LegalMoves[greedyRank(v, read(v))[0]].Move(), nil
}

// greedyRank orders the indexes of v.LegalMoves best first by the greedy rule; the expert uses
// the same order to break its own ties.
func greedyRank(v domain.SeatView, k *knowledge) []int {
	next := (v.Seat + 1) % v.Table.Players()
	threat := k.possible(next)
	type ranked struct{ i, points, pips, followers int }
	rs := make([]ranked, 0, len(v.LegalMoves))
	for i, m := range v.LegalMoves {
		if m.Action != domain.ActionPlay {
			rs = append(rs, ranked{i: i, points: -1})
			continue
		}
		ends := endsAfter(v.Line, m.Tile, m.End)
		follow := threat & (pipTiles[ends[0]] | pipTiles[ends[1]])
		rs = append(rs, ranked{i, m.Points, m.Tile.Pips(), bits.OnesCount32(follow)})
	}
	better := func(a, b ranked) bool {
		if a.points != b.points {
			return a.points > b.points
		}
		if a.pips != b.pips {
			return a.pips > b.pips
		}
		return a.followers < b.followers
	}
	// Insertion sort: at most 14 moves, and it is stable, so equal moves keep the view's order.
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && better(rs[j], rs[j-1]); j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
	order := make([]int, len(rs))
	for i, r := range rs {
		order[i] = r.i
	}
	return order
}

// endsAfter is the pips of both ends once t is laid on e.
func endsAfter(l domain.Line, t domain.Tile, e domain.End) [2]int {
	if l.Len() == 0 {
		return [2]int{t.Low(), t.High()}
	}
	ends := [2]int{l.End(domain.Left).Pip, l.End(domain.Right).Pip}
	return placeOnEnds(ends, l.Len(), t, e)
}
