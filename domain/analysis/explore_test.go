package analysis_test

import (
	"context"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/bot"
)

// TestExploreIsTheReviewsJudgement explores every decision of a reviewed three-player match
// and compares with the review made by the same build: the same options in the same order,
// the same values, the played and the best moves marked. Every other event is not a decision,
// and a step outside the log is invalid.
func TestExploreIsTheReviewsJudgement(t *testing.T) {
	ctx := context.Background()
	events := play(t, []chooser{bot.NewRandom(3), bot.NewGreedy(), bot.NewRandom(4)}, false, 100, seedOf("explore"))
	opts := fastOptions()
	res := mustReview(t, events, opts)
	decided := map[int]bool{}
	for _, d := range res.Decisions {
		decided[d.Seq] = true
		x, err := analysis.Explore(ctx, events, d.Seq, opts)
		if err != nil {
			t.Fatalf("seq %d: %v", d.Seq, err)
		}
		if x.Step != d.Seq || x.Seat != d.Seat || len(x.Options) != len(d.Candidates) {
			t.Fatalf("seq %d: explored %+v, reviewed %+v", d.Seq, x, d)
		}
		played, best := 0, 0
		for i, o := range x.Options {
			c := d.Candidates[i]
			if o.Move != c.Move || o.Value != c.Value || o.Played != (c.Move == d.Played) || o.Best != (c.Move == d.Best) {
				t.Fatalf("seq %d option %d: explored %+v, reviewed %+v (played %+v, best %+v)", d.Seq, i, o, c, d.Played, d.Best)
			}
			played, best = played+count(o.Played), best+count(o.Best)
		}
		if played != 1 || best != 1 {
			t.Fatalf("seq %d: %d played and %d best options", d.Seq, played, best)
		}
		if got := analysis.ExplorationOf(d); !sameExploration(got, x) {
			t.Fatalf("seq %d: the stored review's options %+v differ from the computed %+v", d.Seq, got, x)
		}
	}
	for _, e := range events {
		if decided[e.Seq] {
			continue
		}
		if _, err := analysis.Explore(ctx, events, e.Seq, opts); !errors.Is(err, domain.ErrNotADecision) {
			t.Fatalf("event %d (%s): %v, want NOT_A_DECISION", e.Seq, e.Type, err)
		}
		if _, err := domain.DecisionAt(events, e.Seq); !errors.Is(err, domain.ErrNotADecision) {
			t.Fatalf("DecisionAt %d (%s): %v, want NOT_A_DECISION", e.Seq, e.Type, err)
		}
	}
	for _, step := range []int{0, -1, len(events) + 1} {
		if _, err := analysis.Explore(ctx, events, step, opts); !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("step %d: %v, want INVALID_REQUEST", step, err)
		}
	}
}

// TestDecisionAtIsTheReviewsDecision: the domain's decision is the review's, seat and legal
// moves, at every decision the review judged.
func TestDecisionAtIsTheReviewsDecision(t *testing.T) {
	events := play(t, []chooser{bot.NewGreedy(), bot.NewRandom(5)}, false, 100, seedOf("decision-at"))
	res := mustReview(t, events, fastOptions())
	for _, d := range res.Decisions {
		v, err := domain.DecisionAt(events, d.Seq)
		if err != nil {
			t.Fatalf("seq %d: %v", d.Seq, err)
		}
		if v.Seat != d.Seat || len(v.LegalMoves) != len(d.Candidates) {
			t.Fatalf("seq %d: seat %d with %d moves, reviewed seat %d with %d", d.Seq, v.Seat, len(v.LegalMoves), d.Seat, len(d.Candidates))
		}
	}
}

func count(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sameExploration(a, b analysis.Exploration) bool {
	if a.Step != b.Step || a.Seat != b.Seat || len(a.Options) != len(b.Options) {
		return false
	}
	for i := range a.Options {
		if a.Options[i] != b.Options[i] {
			return false
		}
	}
	return true
}
