package analysis

import (
	"context"

	"github.com/allfives/allfives/domain/bot"
)

// judge values every candidate of one decision from the seat's view, with the expert on the
// review's budget (or exactly, when nothing was hidden), and again in hindsight.
func judge(ctx context.Context, g *game, p point, opts Options) (Decision, error) {
	d, err := value(ctx, g, p, opts)
	if err != nil {
		return Decision{}, err
	}
	legal := p.view.LegalMoves
	hind, _ := bot.Hindsight(p.view, p.hands, p.boneyard, opts.HindsightNodes)
	hb := bestOf(hind, p.played)
	d.Hindsight = Hindsight{Best: moveOf(legal[hb]), Loss: round2(hind[hb] - hind[p.played])}

	top := 0
	for _, l := range legal {
		top = max(top, l.Points)
	}
	d.passedOver = top - legal[p.played].Points
	return d, nil
}

// value values every candidate of one decision from the seat's view, and says which is best
// and what the played move lost: the review's judgement without hindsight, which Explore
// answers alone.
func value(ctx context.Context, g *game, p point, opts Options) (Decision, error) {
	x := bot.NewExpert(derive("decision", g.seed, p.seq), opts.Rollouts)
	values, exact, err := x.Values(ctx, p.view)
	if err != nil {
		return Decision{}, err
	}
	for i := range values {
		values[i] = round2(values[i])
	}
	legal := p.view.LegalMoves
	d := Decision{
		Seq: p.seq, Seat: p.view.Seat, Hand: p.view.HandNumber, Exact: exact,
		Played: moveOf(legal[p.played]), Candidates: make([]Candidate, len(legal)),
	}
	for i, l := range legal {
		d.Candidates[i] = Candidate{Move: moveOf(l), Value: values[i]}
	}
	b := bestOf(values, p.played)
	d.Best, d.Loss = moveOf(legal[b]), round2(values[b]-values[p.played])
	d.Class = classOf(d.Loss)
	return d, nil
}

// bestOf is the index of a highest value: the played move when it is one, so a tie costs
// nothing, else the first in the legal moves' order.
func bestOf(values []float64, played int) int {
	b := played
	for i, v := range values {
		if v > values[b] {
			b = i
		}
	}
	if values[b] == values[played] {
		return played
	}
	return b
}
