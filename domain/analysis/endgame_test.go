package analysis_test

import (
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
)

// TestExactEndgameAgreesWithBruteForce takes the two-player decisions made with the
// boneyard empty, where nothing is hidden, and checks every candidate's value against a
// brute force written here on the domain's own Decide and Apply: a plain minimax over the
// rest of the hand, scored as docs/review.md says (the margin to the end of the hand, plus
// 200 for the side that wins the match on the way or 3 for the side that goes out).
func TestExactEndgameAgreesWithBruteForce(t *testing.T) {
	checked := 0
	for i := 0; checked < 6 && i < 10; i++ {
		seed := seedOf("endgame/" + string(rune('a'+i)))
		events := play(t, []chooser{bot.NewGreedy(), bot.NewRandom(uint64(i))}, false, 0, seed)
		res := mustReview(t, events, fastOptions())
		for _, d := range res.Decisions {
			if !d.Exact {
				continue
			}
			at := indexOfSeq(t, events, d.Seq)
			m, err := domain.Resume("m", seed, events[:at])
			if err != nil {
				t.Fatal(err)
			}
			if tiles(m) > 9 {
				continue // keep the brute force quick
			}
			side := m.Table().SideOf(d.Seat)
			for _, c := range d.Candidates {
				want := brute(t, m, side, moveFrom(t, c.Move))
				if c.Value != float64(want) {
					t.Fatalf("seq %d: %+v valued %v, brute force says %d", d.Seq, c.Move, c.Value, want)
				}
			}
			if d.Hindsight.Loss != d.Loss {
				t.Errorf("seq %d: nothing hidden, yet hindsight loses %v and the judgement %v", d.Seq, d.Hindsight.Loss, d.Loss)
			}
			checked++
		}
	}
	if checked < 6 {
		t.Fatalf("only %d exact endgames found", checked)
	}
}

// brute is side's value of seat to move playing mv in m and both seats then playing their
// best to the end of the hand: each seat maximizes its own side's outcome, which with two
// sides is minimax.
func brute(t *testing.T, m *domain.Match, side int, mv domain.Move) int {
	before := m.Scores()
	c := m.Clone()
	seat := c.Turn()
	at := time.Unix(0, 0).UTC()
	evs, err := c.Decide(seat, mv, at)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if err := c.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	bonus, over := 0, false
	for _, e := range evs {
		switch d := e.Data.(type) {
		case domain.MatchEnded:
			bonus, over = signed(d.WinnerSide == side, 200), true
		case domain.HandEnded:
			over = true
			if d.Outcome == domain.OutcomeDomino && bonus == 0 {
				bonus = signed(*d.WinnerSide == side, 3)
			}
		}
	}
	if over {
		var after []int
		for _, e := range evs {
			if d, ok := e.Data.(domain.HandEnded); ok {
				after = d.Scores
			}
			if d, ok := e.Data.(domain.MatchEnded); ok {
				after = d.Scores
			}
		}
		if after == nil {
			after = c.Scores()
		}
		return (after[side] - before[side]) - (after[1-side] - before[1-side]) + bonus
	}
	next := c.Turn()
	best, maximize := 0, c.Table().SideOf(next) == side
	for i, l := range c.LegalMoves(next) {
		v := brute(t, c, side, l.Move()) + (c.Scores()[side] - before[side]) - (c.Scores()[1-side] - before[1-side])
		if i == 0 || maximize && v > best || !maximize && v < best {
			best = v
		}
	}
	return best
}

func signed(win bool, w int) int {
	if win {
		return w
	}
	return -w
}

// tiles counts the tiles left in hands.
func tiles(m *domain.Match) int {
	n := 0
	for _, h := range m.View(domain.Spectator().Opened()).Hand.Hands {
		n += len(h)
	}
	return n
}
