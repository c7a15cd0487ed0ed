package bot

import (
	"context"

	"github.com/allfives/allfives/domain"
)

// Random plays a uniformly random legal action: each listed play (a tile on an end), draw or
// pass is equally likely. It is the baseline every other strategy must beat.
type Random struct {
	seed uint64
}

// NewRandom returns a random player. Its choices derive from seed and the view, so the same
// view always gets the same move and matches can be replayed exactly.
func NewRandom(seed uint64) *Random { return &Random{seed: seed} }

// Choose picks one of v.LegalMoves at random.
func (p *Random) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, err
	}
	if mv, ok, err := onlyMove(v); ok || err != nil {
		return mv, err
	}
	r := viewRNG(p.seed, v)
	return v.LegalMoves[r.intn(len(v.LegalMoves))].Move(), nil
}
