package analysis_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/bot"
)

// spurner plays like greedy, except at its seat's first decision offering exactly one
// play that scores 15, every other play scoring nothing, and the same tile on the other end
// among them, early in the first hand: there it takes the 15 (take) or the same tile on the other end (!take). So the
// two moves compared differ only in the points and the ends they leave.
type spurner struct {
	inner  chooser
	take   bool
	marked *int // the seq of the marked decision's event, set once found
	seq    func() int
}

func (s *spurner) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	if *s.marked == 0 {
		if scorer, other, ok := fifteenOrNothing(v); ok {
			*s.marked = s.seq()
			if s.take {
				return scorer.Move(), nil
			}
			return other.Move(), nil
		}
	}
	return s.inner.Choose(ctx, v)
}

func fifteenOrNothing(v domain.SeatView) (scorer, other domain.LegalMove, ok bool) {
	if v.HandNumber != 1 || v.Scores[0]+v.Scores[1] > 30 {
		return scorer, other, false // early, where the match's end weighs nothing
	}
	n := 0
	for _, l := range v.LegalMoves {
		switch l.Points {
		case 15:
			scorer, n = l, n+1
		case 0:
		default:
			return scorer, other, false
		}
	}
	if n != 1 {
		return scorer, other, false
	}
	for _, l := range v.LegalMoves {
		if l.Tile == scorer.Tile && l.End != scorer.End {
			return scorer, l, true
		}
	}
	return scorer, other, false
}

// TestFifteenIsBestAndPassingItOverAMistake plays matches in which seat 0 meets a 15 against
// nothing with the same tile, takes it in one and passes it over in the other, and checks the
// review: taking it is best; passing it over loses at least a mistake's worth, the best
// being the 15.
func TestFifteenIsBestAndPassingItOverAMistake(t *testing.T) {
	for _, take := range []bool{true, false} {
		found := 0
		for i := 0; found < 3 && i < 300; i++ {
			events, seq := markedMatch(t, fmt.Sprint("fifteen/", i), take)
			if seq == 0 {
				continue
			}
			found++
			d := decisionAt(t, mustReview(t, events, fastOptions()), seq)
			t.Logf("take=%v seq %d: %s, loss %v", take, seq, d.Class, d.Loss)
			scorer := d.Played
			if !take {
				scorer = analysis.Move{Action: "play", Tile: d.Played.Tile, End: map[string]string{"left": "right", "right": "left"}[d.Played.End]}
			}
			if d.Best != scorer {
				t.Errorf("take=%v seq %d: best %+v, want the 15 %+v; candidates %+v", take, seq, d.Best, scorer, d.Candidates)
			}
			switch {
			case take && d.Class != analysis.ClassBest:
				t.Errorf("seq %d: taking the 15 is %s (loss %v)", seq, d.Class, d.Loss)
			case !take && d.Class != analysis.ClassMistake && d.Class != analysis.ClassBlunder:
				t.Errorf("seq %d: passing the 15 over is %s (loss %v)", seq, d.Class, d.Loss)
			}
		}
		if found < 3 {
			t.Fatalf("take=%v: only %d positions found", take, found)
		}
	}
}

// markedMatch plays greedy against greedy, seat 0 spurning or taking its first
// 15-or-nothing, and returns the log and the seq of that decision (0 when none came up).
func markedMatch(t *testing.T, name string, take bool) ([]domain.Event, int) {
	var events []domain.Event
	marked := 0
	s := &spurner{inner: bot.NewGreedy(), take: take, marked: &marked}
	s.seq = func() int { return len(events) + 1 }
	events = playInto(t, []chooser{s, bot.NewGreedy()}, false, 100, seedOf(name), &events)
	return events, marked
}

func decisionAt(t *testing.T, res *analysis.Result, seq int) analysis.Decision {
	t.Helper()
	for _, d := range res.Decisions {
		if d.Seq == seq {
			return d
		}
	}
	t.Fatalf("no decision at seq %d", seq)
	return analysis.Decision{}
}

// TestOnlyRealDecisionsAreJudged folds the log independently and checks that the review
// judges exactly the decisions with more than one legal move, each with every legal move as
// a candidate, and that what it says of each is coherent.
func TestOnlyRealDecisionsAreJudged(t *testing.T) {
	seed := seedOf("real-decisions")
	events := play(t, []chooser{bot.NewRandom(3), bot.NewGreedy(), bot.NewRandom(4)}, false, 100, seed)
	res := mustReview(t, events, fastOptions())
	want := map[int]int{} // seq -> legal moves
	forced := 0
	for i, e := range events {
		if e.Type != domain.TypeTilePlayed && e.Type != domain.TypeTileDrawn && e.Type != domain.TypeTurnPassed {
			continue
		}
		m, err := domain.Resume("m", seed, events[:i])
		if err != nil {
			t.Fatal(err)
		}
		if n := len(m.LegalMoves(m.Turn())); n > 1 {
			want[e.Seq] = n
		} else {
			forced++
		}
	}
	if forced == 0 || len(res.Decisions) != len(want) {
		t.Fatalf("judged %d decisions, want %d (forced moves: %d)", len(res.Decisions), len(want), forced)
	}
	for _, d := range res.Decisions {
		if len(d.Candidates) != want[d.Seq] {
			t.Fatalf("seq %d: %d candidates, %d legal moves", d.Seq, len(d.Candidates), want[d.Seq])
		}
		var played, best *analysis.Candidate
		for i := range d.Candidates {
			c := &d.Candidates[i]
			if c.Move == d.Played {
				played = c
			}
			if c.Move == d.Best {
				best = c
			}
		}
		if played == nil || best == nil || d.Loss < 0 || d.Loss != best.Value-played.Value && fmt.Sprintf("%.2f", best.Value-played.Value) != fmt.Sprintf("%.2f", d.Loss) {
			t.Fatalf("seq %d: incoherent judgement %+v", d.Seq, d)
		}
		for _, c := range d.Candidates {
			if c.Value > best.Value {
				t.Fatalf("seq %d: %+v beats the best", d.Seq, c)
			}
		}
		if d.Hindsight.Loss < 0 {
			t.Fatalf("seq %d: negative hindsight loss", d.Seq)
		}
	}
	total := 0
	for _, s := range res.Seats {
		c := s.Classes
		if n := c.Best + c.Good + c.Inaccuracy + c.Mistake + c.Blunder; n != s.Judged {
			t.Errorf("seat %d: classes add to %d, judged %d", s.Seat, n, s.Judged)
		}
		if s.Accuracy < 0 || s.Accuracy > 100 {
			t.Errorf("seat %d: accuracy %v", s.Seat, s.Accuracy)
		}
		total += s.Judged
	}
	if total != len(want) {
		t.Errorf("seats judged %d, decisions %d", total, len(want))
	}
}

// TestReviewIsDeterministic reviews one match twice, par included, and compares the JSON.
func TestReviewIsDeterministic(t *testing.T) {
	events := play(t, []chooser{bot.NewGreedy(), bot.NewRandom(9)}, false, 100, seedOf("determinism"))
	opts := analysis.Options{Rollouts: 600, ParRuns: 2, ParRollouts: 100}
	a, err := json.Marshal(mustReview(t, events, opts))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(mustReview(t, events, opts))
	if !bytes.Equal(a, b) {
		t.Fatalf("two reviews differ:\n%s\n%s", a, b)
	}
}

// TestParSplitsTheMargin checks par's bookkeeping: with two sides the par margins are
// opposite, luck is par and skill is the actual margin less par.
func TestParSplitsTheMargin(t *testing.T) {
	events := play(t, []chooser{bot.NewGreedy(), bot.NewRandom(5)}, false, 100, seedOf("par"))
	res := mustReview(t, events, analysis.Options{Rollouts: 300, ParRuns: 2, ParRollouts: 100})
	ended := events[len(events)-1].Data.(domain.MatchEnded)
	a, b := res.Seats[0], res.Seats[1]
	if a.Margin != float64(ended.Scores[0]-ended.Scores[1]) || b.Margin != -a.Margin {
		t.Errorf("margins %v and %v, scores %v", a.Margin, b.Margin, ended.Scores)
	}
	if a.ParMargin != -b.ParMargin || a.ParMargin == 0 && b.ParMargin == 0 && a.Luck != 0 {
		t.Errorf("par margins %v and %v", a.ParMargin, b.ParMargin)
	}
	for _, s := range res.Seats {
		if s.Luck != s.ParMargin || fmt.Sprintf("%.2f", s.Skill) != fmt.Sprintf("%.2f", s.Margin-s.ParMargin) {
			t.Errorf("seat %d: luck %v skill %v, margin %v par %v", s.Seat, s.Luck, s.Skill, s.Margin, s.ParMargin)
		}
	}
}

// TestOnlyAFinishedHonestLogIsReviewed: a live match is not finished, and a log whose
// revealed seed breaks its commitment is not a match record.
func TestOnlyAFinishedHonestLogIsReviewed(t *testing.T) {
	events := play(t, []chooser{bot.NewGreedy(), bot.NewGreedy()}, false, 50, seedOf("errors"))
	if _, err := analysis.Review(context.Background(), events[:len(events)-1], analysis.Options{}); !errors.Is(err, analysis.ErrNotFinished) {
		t.Errorf("unfinished: %v", err)
	}
	last := events[len(events)-1]
	d := last.Data.(domain.MatchEnded)
	d.Seed = seedOf("another").String()
	bad := append(events[:len(events)-1:len(events)-1], domain.Event{Seq: last.Seq, Type: last.Type, At: last.At, Data: d})
	if _, err := analysis.Review(context.Background(), bad, analysis.Options{}); !errors.Is(err, analysis.ErrBadLog) {
		t.Errorf("wrong seed: %v", err)
	}
}
