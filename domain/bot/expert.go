package bot

import (
	"context"
	"math/bits"
	"time"

	"github.com/allfives/allfives/domain"
)

// DefaultRollouts is the expert's work per decision: the number of hands it plays out, shared
// among the candidate moves. It is a count, not a time limit, so a decision is the same on a
// fast machine and a slow one; BenchmarkExpertChoose shows what it costs.
const DefaultRollouts = 2400

// Expert is an information-set Monte Carlo player. For each decision it samples deals of the
// tiles it cannot see that agree with everything its seat has observed (see knowledge),
// weighting each deal by how likely it made the other players' past plays (choiceModel);
// plays every candidate in each sampled deal and finishes the hand with every seat playing the
// lookahead policy (lookaheadPick); and takes the candidate with the best weighted mean
// outcome: the side's chance of winning the match after the playout (equityValue). With two
// players and few tiles hidden it also solves sampled deals exactly (solveSampled), and once
// the boneyard is empty nothing is hidden and it searches the rest of the hand exactly.
type Expert struct {
	seed     uint64
	rollouts int
	opts     expertOpts
}

// expertOpts are the expert's switches, kept so the experiments behind it
// (docs/decisions/016-the-expert-plays-lookahead-playouts.md and the decisions after it) can be
// rerun; NewExpert sets the ones that paid.
type expertOpts struct {
	uniform   bool    // sample like PIMC, ignoring what the history says
	look      bool    // play out with lookaheadPick rather than greedily
	exact     int     // node cap of the exact endgame search (0: none)
	beta      float64 // weight deals by past choices with choiceModel(beta) (0: none)
	noMatch   bool    // value only the hand's margin, as PIMC does, not the match
	deep      int     // sampled deals solved exactly late in a two-player hand (0: none)
	deepMax   int     // the most hidden tiles the late search takes on
	deepNodes int     // node cap of each of those solves
	block     int     // points the lookahead policy adds to blockBonus
	plies     int     // how many plies the lookahead policy looks past its play at two players (0, 1: one)
	equity    bool    // value a playout by the chance of winning the match (equityValue)
	pipW      int     // sim.pipW
	dbl       int     // sim.dblAdd
	mob       int     // sim.mob
	blkEmpty  int     // sim.blkEmpty
	netBlk    int     // sim.netBlk
}

// exactNodes caps the positions the exact endgame search of one decision visits, which bounds
// its cost; most endgames need far fewer.
const exactNodes = 200000

// Evaluation weights, in points. Winning the match outweighs any margin; the lead of the next
// hand is worth a little (the leader plays first and scores first).
const (
	matchWeight = 200
	leadWeight  = 3
)

// NewExpert returns an expert that plays out rollouts hands per decision in total. Its
// sampling derives from seed and the view, so it is repeatable.
func NewExpert(seed uint64, rollouts int) *Expert {
	return &Expert{seed: seed, rollouts: max(rollouts, 1), opts: released}
}

// released is the expert's options as NewExpert sets them: the ones that paid
// (docs/bots.md, "Against a plain Monte Carlo player"). level-8 plays with them too.
var released = expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: deepUnseen, deepNodes: deepNodes, block: 5, plies: 2}

// oneply is released but for its lookahead policy, one ply deep (the variant c-all of
// docs/decisions/016-the-expert-plays-lookahead-playouts.md, solving late from deepUnseen hidden tiles as the released expert does);
// level-7 plays with it.
var oneply = expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: deepUnseen, deepNodes: deepNodes, block: 5}

// ExpertMinDecision is the floor the referee holds each of the expert's decisions to while a
// human sits at the match (domain.Paced). The playouts are a fixed count, but what one costs
// depends on the position (how long the hands left are, how many moves are candidates), so an
// unpaced decision's time still says something of the expert's hand: a forced move is a
// little faster than a real choice (BenchmarkExpertForcedVsChoice). The floor is chosen above
// the 99th percentile of real decisions on an idle machine with margin (BenchmarkExpertChoose;
// the figures are in docs/bots.md, "Cost"), so that nearly every decision takes exactly the
// floor and a forced move looks like a choice. A decision slower than the floor (a loaded
// machine) still shows its own time, only blurred by the others. Two-player endgames with the
// boneyard empty, where the exact search may run long, hide nothing: each side can tell the
// other's hand from its own.
const ExpertMinDecision = 20 * time.Millisecond

// MinDecision is ExpertMinDecision: the expert is domain.Paced.
func (x *Expert) MinDecision() time.Duration { return ExpertMinDecision }

// Choose spends the whole budget on every decision, a forced one included, so its time does
// not reveal whether it had a choice, and returns the best move found. What is left of the
// time's dependence on the position the referee hides with MinDecision.
func (x *Expert) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	mv, _, err := x.decide(ctx, v)
	return mv, err
}

// decide is Choose, also returning the playouts run, for the tests.
func (x *Expert) decide(ctx context.Context, v domain.SeatView) (domain.Move, int, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, 0, err
	}
	if len(v.LegalMoves) == 0 {
		return domain.Move{}, 0, errNoMoves
	}
	order, values, n, err := x.evaluate(ctx, v)
	if err != nil {
		return domain.Move{}, n, err
	}
	return v.LegalMoves[order[best(values)]].Move(), n, nil
}

// evaluate values each legal move: order lists the indexes of v.LegalMoves in the order ties
// are broken, values their mean outcomes in that order, and n is the playouts run.
func (x *Expert) evaluate(ctx context.Context, v domain.SeatView) (order []int, values []float64, n int, err error) {
	k := read(v)
	s, order := x.prepare(v, k)
	values, n, err = x.search(ctx, v, k, &s)
	return order, values, n, err
}

// prepare sets up the study of v's candidates: the seat's hand, the candidates in the order
// ties are broken, the sampling of the hidden tiles and the playouts' policy and scoring.
func (x *Expert) prepare(v domain.SeatView, k *knowledge) (study, []int) {
	order := greedyRank(v, k)
	side := v.Table.SideOf(v.Seat)
	s := study{
		base:   seatSim(v, k.mine, v.Target),
		cands:  movesOf(v.LegalMoves, order),
		budget: x.rollouts,
		finish: (*sim).rollout,
		score:  func(g *sim) float64 { return float64(outcome(g, side)) },
	}
	if x.opts.noMatch {
		s.base.target = noTarget
		s.score = func(g *sim) float64 { return float64(margin(g, side)) }
	}
	if x.opts.uniform {
		s.deal = uniformDeal(v, k.unseen)
	} else {
		smp := newSampler(k)
		if x.opts.beta > 0 {
			smp.model = newChoiceModel(x.opts.beta)
		}
		s.deal = smp.deal
	}
	s.base.look = x.opts.look
	s.base.blockAdd = int8(x.opts.block)
	s.base.plies = uint8(min(max(x.opts.plies, 1), maxPlies))
	s.base.equity = x.opts.equity && !x.opts.noMatch
	s.base.pipW, s.base.dblAdd, s.base.mob = int8(x.opts.pipW), int8(x.opts.dbl), int8(x.opts.mob)
	s.base.blkEmpty, s.base.netBlk = int8(x.opts.blkEmpty), int8(x.opts.netBlk)
	s.base.knobs = x.opts.pipW != 0 || x.opts.dbl != 0 || x.opts.mob != 0 || x.opts.blkEmpty != 0
	return s, order
}

// search runs the study's playouts and, at two players, the exact searches that replace
// their values: the known endgame once the boneyard is empty, sampled deals late in a hand.
func (x *Expert) search(ctx context.Context, v domain.SeatView, k *knowledge, s *study) ([]float64, int, error) {
	side := v.Table.SideOf(v.Seat)
	r := viewRNG(x.seed, v)
	values, n, err := s.run(ctx, &r)
	if err == nil && x.opts.exact > 0 && v.Table.Players() == 2 && v.Boneyard == 0 {
		x.solveKnown(s, k, side, values)
	}
	if err == nil && x.opts.deep > 0 && v.Table.Players() == 2 && v.Boneyard > 0 && bits.OnesCount32(k.unseen) <= x.opts.deepMax {
		x.solveSampled(s, &r, side, values)
	}
	return values, n, err
}

// solveKnown replaces the sampled values by exact ones when the deal is known: with two
// players and the boneyard empty, the unseen tiles are the opponent's hand. The playouts have
// run all the same, so the decision takes its usual time.
func (x *Expert) solveKnown(s *study, k *knowledge, side int, values []float64) {
	world := s.base
	world.hands[1-k.me] = k.unseen
	world.boneAt, world.boneEnd = 0, 0
	nodes := x.opts.exact
	alpha := -1 << 30 // a move that cannot beat the best so far needs no exact value
	stack := make([]sim, solveDepth)
	for i, c := range s.cands {
		g := world
		g.apply(c)
		v := g.solve(side, alpha, 1<<30, &nodes, stack)
		values[i] = float64(v)
		alpha = max(alpha, v)
	}
}

// outcome scores a finished rollout for side: the point margin over the best opposing side,
// plus the match or next-lead bonus.
func outcome(g *sim, side int) int {
	if g.equity {
		return equityValue(g, side)
	}
	v := margin(g, side)
	w := 0
	switch g.state {
	case matchOver:
		w = matchWeight
	case wentOut:
		w = leadWeight
	default:
		return v
	}
	if int(g.winner) == side {
		return v + w
	}
	return v - w
}
