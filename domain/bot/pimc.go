package bot

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain"
)

// DefaultPlayouts is the Monte Carlo players' work per decision: the number of hands played
// out, shared among the candidate moves. It is a count, not a time limit, so a decision is the
// same on a fast machine and a slow one.
const DefaultPlayouts = 2400

// noTarget stands in for the match target when a player ignores the match score: no hand
// reaches it, so every playout runs to the end of the hand.
const noTarget = 1 << 30

// PIMC is the plainest perfect-information Monte Carlo player, the yardstick the expert is
// measured against. For each decision it deals the tiles it cannot see uniformly at random
// into the other hands (each of its known size) and the boneyard, ignoring everything the
// history says about them; plays each legal move in that deal and finishes the hand with
// greedy play for every seat; and takes the move with the best average margin: its side's
// points over the rest of the hand, hand-end bonus included, minus the best opposing side's.
// The match score plays no part.
type PIMC struct {
	seed     uint64
	playouts int
}

// NewPIMC returns a PIMC player that plays out playouts hands per decision in total. Its
// sampling derives from seed and the view, so it is repeatable.
func NewPIMC(seed uint64, playouts int) *PIMC {
	return &PIMC{seed: seed, playouts: max(playouts, 1)}
}

// PIMCMinDecision is the floor the referee holds each of pimc's decisions to while a human
// sits at the match (domain.Paced), for the expert's reason (ExpertMinDecision): a playout's
// cost depends on the position. It is chosen above the 99th percentile of pimc's decisions,
// forced and real, on an idle machine with margin (BenchmarkPIMCChoose,
// BenchmarkPIMCForcedVsChoice). A decision slower than the floor (a loaded machine) still
// shows its own time, only blurred.
const PIMCMinDecision = 8 * time.Millisecond

// MinDecision is PIMCMinDecision: pimc is domain.Paced.
func (p *PIMC) MinDecision() time.Duration { return PIMCMinDecision }

// Choose spends the whole budget on every decision, a forced one included, and returns the
// move with the best mean margin; ties go to the earlier legal move.
func (p *PIMC) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	mv, _, err := p.decide(ctx, v)
	return mv, err
}

// decide is Choose, also returning the playouts run, for the tests.
func (p *PIMC) decide(ctx context.Context, v domain.SeatView) (domain.Move, int, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, 0, err
	}
	if len(v.LegalMoves) == 0 {
		return domain.Move{}, 0, errNoMoves
	}
	order, values, n, err := p.evaluate(ctx, v)
	if err != nil {
		return domain.Move{}, n, err
	}
	return v.LegalMoves[order[best(values)]].Move(), n, nil
}

// evaluate values each legal move: order lists the indexes of v.LegalMoves in the order ties
// are broken, values their mean outcomes in that order, and n is the playouts run.
func (p *PIMC) evaluate(ctx context.Context, v domain.SeatView) (order []int, values []float64, n int, err error) {
	order = make([]int, len(v.LegalMoves))
	for i := range order {
		order[i] = i
	}
	mine := maskOf(v.Hand)
	unseen := allTiles &^ mine &^ maskOf(lineTiles(v.Line))
	side := v.Table.SideOf(v.Seat)
	s := study{
		base:   seatSim(v, mine, noTarget),
		cands:  movesOf(v.LegalMoves, order),
		budget: p.playouts,
		deal:   uniformDeal(v, unseen),
		finish: (*sim).rollout,
		score:  func(g *sim) float64 { return float64(margin(g, side)) },
	}
	r := viewRNG(p.seed^pimcSalt, v)
	values, n, err = s.run(ctx, &r)
	return order, values, n, err
}

// pimcSalt keeps PIMC's random stream apart from the expert's when both get the same seed.
const pimcSalt = 0x5049_4d43_5049_4d43

// uniformDeal shuffles unseen into the other seats' hands, by the view's hand sizes, and the
// rest into the boneyard; every such deal is equally likely.
func uniformDeal(v domain.SeatView, unseen uint32) func(r *rng, g *sim) float64 {
	return func(r *rng, g *sim) float64 {
		free := unseen
		for seat, size := range v.HandSizes {
			if seat == v.Seat || seat >= len(g.hands) {
				continue
			}
			g.hands[seat] = 0
			for i := 0; i < size && free != 0; i++ {
				t := randomTile(r, free)
				g.hands[seat] |= 1 << t
				free &^= 1 << t
			}
		}
		g.shuffleBone(r, free)
		return 1
	}
}
