package bot

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/allfives/allfives/domain"
)

// Levels is how many graded strengths there are: level-1, just above random, to level-8, the
// expert.
const Levels = 8

// LevelName is the strategy name of level n (1..Levels): "level-n".
func LevelName(n int) string { return fmt.Sprintf("level-%d", n) }

// LevelNames lists the levels' strategy names, weakest first.
func LevelNames() []string {
	out := make([]string, Levels)
	for i := range out {
		out[i] = LevelName(i + 1)
	}
	return out
}

// levelSpec is how one level thinks: a share of the expert's budget, how much it misjudges the
// values it finds, and which of the expert's refinements it uses.
type levelSpec struct {
	share float64    // of the expert's playouts, at least one per decision
	noise [4]float64 // the spread of its misjudgement in points (0: none), by tableKind
	opts  expertOpts
}

// tableKind indexes a level's noise: 0 for two players, 1 for three, 2 for four alone, 3 for
// four in partnerships. A step between levels costs a different share of the noise at each:
// the more seats, the more a hand's luck hides skill, and the refinements that separate the
// upper levels at two players (the two-ply policy, the exact and late solves) act only there.
func tableKind(t domain.Table) int {
	switch {
	case t.Players() == 2:
		return 0
	case t.Players() == 3:
		return 1
	case t.Sides() == t.Players():
		return 2
	}
	return 3
}

// levels are the eight levels, weakest first. Each is the expert's evaluation with a smaller
// budget, fewer refinements, and noise over the values it finds (Level). The figures behind
// them are in docs/bots.md ("Levels").
var levels = [Levels]levelSpec{
	{share: 1.0 / 200, noise: [4]float64{60, 30, 60, 18}, opts: expertOpts{uniform: true, noMatch: true}},
	{share: 1.0 / 50, noise: [4]float64{25, 25, 25, 12}, opts: expertOpts{uniform: true, noMatch: true}},
	{share: 1.0 / 25, noise: [4]float64{18, 13, 13, 15}, opts: expertOpts{uniform: true}},
	{share: 1.0 / 12, noise: [4]float64{8, 11, 9, 7}, opts: expertOpts{uniform: true}},
	{share: 1.0 / 6, noise: [4]float64{6.5, 9.5, 10, 6.5}, opts: expertOpts{look: true, beta: 0.4}},
	{share: 1.0 / 4, noise: [4]float64{3, 6.5, 4.5, 5}, opts: expertOpts{look: true, beta: 0.4, exact: exactNodes}},
	{share: 1.0 / 2, noise: [4]float64{1.5, 2.5, 4, 3.5}, opts: oneply},
	{share: 1, opts: released},
}

// Level plays one of the graded strengths. It values every legal move as the expert does, with
// the level's share of the budget and of the expert's refinements, then misjudges: it adds to
// each value noise drawn from a Gumbel distribution of the level's spread and takes the best,
// which is choosing each move with a probability that grows with its value (a softmax at that
// temperature). A move much worse than the best is rarely taken and a close second often,
// which is how people err; a level never picks a move at random without looking at values.
// The noise is drawn from the seed and the view, like the expert's sampling, so a level is
// deterministic and sees only its seat. level-8 is the expert itself.
type Level struct {
	n      int
	seed   uint64
	expert Expert
	noise  [4]float64
}

// NewLevel returns level n (1..Levels, clamped) for an expert budget of rollouts playouts: the
// level plays its share of them. Strategies uses DefaultRollouts.
func NewLevel(seed uint64, n, rollouts int) *Level {
	n = min(max(n, 1), Levels)
	spec := levels[n-1]
	budget := max(int(math.Round(spec.share*float64(rollouts))), 1)
	return &Level{n: n, seed: seed, expert: Expert{seed: seed, rollouts: budget, opts: spec.opts}, noise: spec.noise}
}

// MinDecision is the expert's floor: a level's playouts, like the expert's, cost more in some
// positions than others, and a weaker level's smaller budget is well under the floor.
func (l *Level) MinDecision() time.Duration { return ExpertMinDecision }

// Choose spends the level's whole budget on every decision, a forced one included, as the
// expert does, and returns the move its noisy judgement prefers.
func (l *Level) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	mv, _, err := l.decide(ctx, v)
	return mv, err
}

// levelSalt keeps a level's noise apart from its sampling, which uses the same seed.
const levelSalt = 0x6c65_7665_6c6e_6f69

// decide is Choose, also returning the playouts run, for the tests.
func (l *Level) decide(ctx context.Context, v domain.SeatView) (domain.Move, int, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, 0, err
	}
	if len(v.LegalMoves) == 0 {
		return domain.Move{}, 0, errNoMoves
	}
	order, values, n, err := l.expert.evaluate(ctx, v)
	if err != nil {
		return domain.Move{}, n, err
	}
	if t := l.temperature(v); t > 0 {
		r := viewRNG(l.seed^levelSalt^uint64(l.n), v)
		for i := range values {
			values[i] += t * gumbel(&r)
		}
	}
	return v.LegalMoves[order[best(values)]].Move(), n, nil
}

// gumbel draws from the standard Gumbel distribution: the maximum of values plus Gumbel noise
// of scale T picks each with probability proportional to exp(value/T).
func gumbel(r *rng) float64 {
	u := (float64(r.next()>>11) + 0.5) / (1 << 53) // in (0, 1)
	return -math.Log(-math.Log(u))
}

// temperature is the level's noise in the units of its values: points, or for a level that
// values the match (equity), the equity of that many points at the view's score.
func (l *Level) temperature(v domain.SeatView) float64 {
	o, noise := l.expert.opts, l.noise[tableKind(v.Table)]
	if noise == 0 || !o.equity || o.noMatch {
		return noise
	}
	return noise * equitySlope(v.Scores, v.Table.SideOf(v.Seat), v.Target)
}
