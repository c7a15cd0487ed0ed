package bot

import (
	"context"
	"math/bits"
	"testing"

	"github.com/allfives/allfives/domain"
)

// peeker is a chooser the duel harness shows the opponent's view before each of its
// decisions (playDuel): the oracle below, which no seat of a real match could be.
type peeker interface {
	seeing(opp domain.SeatView) chooser
}

// oracle is the released expert told the opponent's hand: it deals only the boneyard's order
// at random and keeps everything else of the expert (policy, scoring, exact searches). Its
// result against the reference bounds what better inference could add to the expert, and
// measures how much of the game is the hidden hand (docs/bots.md, "What the hidden hand is
// worth").
type oracle struct {
	x    *Expert
	opp  uint32 // the opponent's hand, set by seeing
	late int    // if set, the hand is used only once at most this many tiles are hidden
}

// seeing is the oracle told the hand of v, the opponent's view.
func (o oracle) seeing(v domain.SeatView) chooser { o.opp = maskOf(v.Hand); return o }

// Choose is the expert's decision with the opponent's hand in every sampled deal.
func (o oracle) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	k := read(v)
	if o.late > 0 && bits.OnesCount32(k.unseen) > o.late {
		return o.x.Choose(ctx, v)
	}
	s, order := o.x.prepare(v, k)
	opp, rest := o.opp, k.unseen&^o.opp
	s.deal = func(r *rng, g *sim) float64 {
		g.hands[1-v.Seat] = opp
		g.shuffleBone(r, rest)
		return 1
	}
	values, _, err := o.x.search(ctx, v, k, &s)
	if err != nil {
		return domain.Move{}, err
	}
	return v.LegalMoves[order[best(values)]].Move(), nil
}

// BenchmarkOracleVsReference plays the oracle against the reference on the deals of
// BenchmarkExpertVsReference, one op a deal sequence played from both seats:
//
//	go test ./domain/bot -run '^$' -bench '^BenchmarkOracleVsReference$' -benchtime 200x -cpu 1
func BenchmarkOracleVsReference(b *testing.B) {
	vsReference(b, firstDeals, oracle{x: NewExpert(1, DefaultRollouts)}, "oracle against the reference")
}

// BenchmarkLateOracleVsReference is BenchmarkOracleVsReference with the oracle told the hand
// only once at most 10 tiles are hidden, when the late solve starts.
func BenchmarkLateOracleVsReference(b *testing.B) {
	o := oracle{x: NewExpert(1, DefaultRollouts), late: deepUnseen}
	vsReference(b, firstDeals, o, "late oracle against the reference")
}

// BenchmarkOracleOnFreshDeals is BenchmarkOracleVsReference on the fresh deals.
func BenchmarkOracleOnFreshDeals(b *testing.B) {
	vsReference(b, freshDeals, oracle{x: NewExpert(1, DefaultRollouts)}, "oracle against the reference, fresh deals")
}

// TestOracleSeesTheHand checks the harness hands the oracle the opponent's real hand, and
// that the oracle, knowing it, beats the expert: were the hand wrong or missing it would not.
func TestOracleSeesTheHand(t *testing.T) {
	o := oracle{x: NewExpert(1, 300)}
	r := duel(t, "oracle-vs-expert", o, NewExpert(1, 300), 6)
	if r.rate() <= 0.5 {
		t.Fatalf("oracle against the expert: %s, want more than half", r)
	}
	t.Logf("oracle against the expert: %s", r)
}
