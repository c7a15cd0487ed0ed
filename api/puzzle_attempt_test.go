package api_test

import (
	"context"
	"math"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/repository/storetest"
)

// TestPuzzleAttemptAgreesWithReview: an attempt's answer is its source's review: the options
// and their values are the decision's candidates, the best and the played move the review's,
// and the answer is right exactly for the best move. Every puzzle keeps the rule: the move
// played lost at least analysis.PuzzleMinLoss points and the best beat the second by
// analysis.PuzzleMinMargin.
func TestPuzzleAttemptAgreesWithReview(t *testing.T) {
	h := newPuzzleHarness(t)
	reviews := map[string]api.Review{}
	for _, tb := range h.matches {
		reviews[tb.id] = strictReview(t, tb.getReview(http.StatusOK).body)
	}
	for n := 0; ; n++ {
		next, r := h.next()
		if r.status != http.StatusOK {
			t.Fatalf("anyone's next: %d %s", r.status, r.body)
		}
		p := next.Puzzle
		wrong := h.attempt(p.ID, p.LegalMoves[len(p.LegalMoves)-1])
		rv, ok := reviews[wrong.Source.Match]
		if !ok {
			t.Fatalf("puzzle %s names match %s, not one of the test's", p.ID, wrong.Source.Match)
		}
		i := slices.IndexFunc(rv.Decisions, func(d api.ReviewDecision) bool { return d.Seq == wrong.Source.Step })
		if i < 0 {
			t.Fatalf("puzzle %s: step %d is no decision of the review", p.ID, wrong.Source.Step)
		}
		d := rv.Decisions[i]
		if len(wrong.Options) != len(d.Candidates) || len(p.LegalMoves) != len(d.Candidates) {
			t.Fatalf("puzzle %s: %d options, %d legal moves, the review %d candidates", p.ID, len(wrong.Options), len(p.LegalMoves), len(d.Candidates))
		}
		second := -1e9
		for j, c := range d.Candidates {
			o := wrong.Options[j]
			if o.Move != api.PuzzleMove(c.Move) || p.LegalMoves[j] != api.PuzzleMove(c.Move) || o.Value != c.Value {
				t.Fatalf("puzzle %s option %d: %+v, legal %+v, the review's %+v", p.ID, j, o, p.LegalMoves[j], c)
			}
			if c.Move != d.Best {
				second = max(second, c.Value)
			}
		}
		if wrong.Best != api.PuzzleMove(d.Best) || wrong.Played != api.PuzzleMove(d.Played) || wrong.Loss != d.Loss {
			t.Fatalf("puzzle %s: best %+v played %+v loss %g; the review's %+v %+v %g", p.ID, wrong.Best, wrong.Played, wrong.Loss, d.Best, d.Played, d.Loss)
		}
		bestValue := wrong.Options[slices.IndexFunc(wrong.Options, func(o api.PuzzleOption) bool { return o.Best })].Value
		if d.Loss < analysis.PuzzleMinLoss || math.Round(100*(bestValue-second))/100 < analysis.PuzzleMinMargin {
			t.Fatalf("puzzle %s breaks the rule: loss %g, margin %g", p.ID, d.Loss, bestValue-second)
		}
		if wrong.Correct != (wrong.Move == wrong.Best) {
			t.Fatalf("puzzle %s: %+v answered correct=%v, best %+v", p.ID, wrong.Move, wrong.Correct, wrong.Best)
		}
		if right := h.attempt(p.ID, wrong.Best); !right.Correct || right.Rated || right.Solver != nil {
			t.Fatalf("puzzle %s: the best move answered %+v", p.ID, right)
		}
		if n >= 2 {
			return
		}
	}
}

// TestPuzzleFirstAttemptOnlyIsRated: with a key, a player's first attempt at a puzzle moves
// its puzzle rating and the puzzle's; a second attempt at it moves nothing; an attempt at a
// puzzle of the player's own matches is never rated; without a key nothing is rated.
func TestPuzzleFirstAttemptOnlyIsRated(t *testing.T) {
	h := newPuzzleHarness(t)
	next, r := h.next(auth(h.bea.Key)...)
	if r.status != http.StatusOK || next.Solver != nil {
		t.Fatalf("Bea's first next: %d %s", r.status, r.body)
	}
	p := next.Puzzle
	first := h.attempt(p.ID, p.LegalMoves[0], auth(h.bea.Key)...)
	if !first.Rated || first.Solver == nil || first.Solver.Attempts != 1 {
		t.Fatalf("a first attempt: %+v", first)
	}
	if want := 25.0; (first.Correct && first.Solver.Mu <= want) || (!first.Correct && first.Solver.Mu >= want) {
		t.Fatalf("a first attempt, correct %v, left mu at %g", first.Correct, first.Solver.Mu)
	}
	again := h.attempt(p.ID, first.Best, auth(h.bea.Key)...)
	if again.Rated || *again.Solver != *first.Solver {
		t.Fatalf("a second attempt moved the rating: %+v, then %+v", first.Solver, again.Solver)
	}
	later, r := h.next(auth(h.bea.Key)...)
	if r.status == http.StatusOK {
		if later.Puzzle.ID == p.ID || later.Solver == nil || *later.Solver != *first.Solver {
			t.Fatalf("next after an attempt: %+v", later)
		}
	}
	own := h.own(h.ada)[0]
	mine := h.attempt(own.ID, own.LegalMoves[0], auth(h.ada.Key)...)
	if mine.Rated || mine.Solver != nil {
		t.Fatalf("Ada's attempt at her own mistake: %+v", mine)
	}
	h.do(http.MethodPost, "/api/v1/puzzles/"+p.ID+"/attempts", api.AttemptRequest{Move: &api.PuzzleMove{Action: "play", Tile: "7-7"}}).problem(t, 422, "NOT_AN_OPTION")
	h.do(http.MethodPost, "/api/v1/puzzles/pznope/attempts", api.AttemptRequest{Move: &p.LegalMoves[0]}).problem(t, 404, "PUZZLE_NOT_FOUND")
	h.do(http.MethodPost, "/api/v1/puzzles/"+p.ID+"/attempts", map[string]any{}).problem(t, 400, "INVALID_REQUEST")
}

// TestPuzzleAttemptLimit: attempts count against --limit-puzzle-attempts per address and per
// player; beyond it 429 RATE_LIMITED with Retry-After.
func TestPuzzleAttemptLimit(t *testing.T) {
	h := newHarness(t, apitest.Reviews(nil), apitest.Limits(api.Limits{Attempts: api.Rate{N: 2, Per: time.Hour}}))
	p := storetest.PuzzleFixture("pzlimit", "m1", 1, 25, "")
	if err := h.Store.(puzzles.Store).PutPuzzles(context.Background(), []puzzles.Puzzle{p}); err != nil {
		t.Fatal(err)
	}
	move := api.PuzzleMove{Action: "play", Tile: "6-6", End: "left"}
	for range 2 {
		if r := h.do(http.MethodPost, "/api/v1/puzzles/pzlimit/attempts", api.AttemptRequest{Move: &move}); r.status != http.StatusOK {
			t.Fatalf("an attempt within the limit: %d %s", r.status, r.body)
		}
	}
	r := h.do(http.MethodPost, "/api/v1/puzzles/pzlimit/attempts", api.AttemptRequest{Move: &move})
	r.problem(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("a refused attempt without Retry-After")
	}
}
