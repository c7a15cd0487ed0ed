package api_test

import (
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/analysis"
)

// branch POSTs a branch of tb before decision step with bots bot, answered with want.
func (tb *table) branch(step int, bot string, want int, hdr ...string) *reply {
	tb.h.t.Helper()
	r := tb.h.do(http.MethodPost, tb.path("/branches"), api.CreateBranchRequest{Step: step, Bot: bot}, hdr...)
	if r.status != want {
		tb.h.t.Fatalf("POST branches step %d: %d, want %d: %s", step, r.status, want, r.body)
	}
	return r
}

// branchAt makes a branch of tb before decision d and checks that its position is the one
// tb's replay shows before d, as d's seat sees it: the scores, the line, the seat's tiles, the
// other seats' counts, the boneyard's size and the seat's legal moves; and that it hides the
// other hands as any live match does.
func (tb *table) branchAt(d analysis.Decision) *table {
	tb.h.t.Helper()
	t := tb.h.t
	var out api.BranchResponse
	tb.branch(d.Seq, "greedy", http.StatusCreated).decode(t, &out)
	var before api.ReplayResponse
	tb.fetch("/replay?step="+strconv.Itoa(d.Seq-1), -1, &before)
	was, now := before.Match, out.Match
	if now.BranchOf == nil || now.BranchOf.Match != tb.id || now.BranchOf.Step != d.Seq || now.Rated || now.Seeded {
		t.Fatalf("branch_of %+v, rated %v, seeded %v", now.BranchOf, now.Rated, now.Seeded)
	}
	if now.Status != "in_progress" || now.Turn == nil || *now.Turn != d.Seat || now.You == nil || now.You.Seat != d.Seat {
		t.Fatalf("the branch is %s with turn %v and you %+v, want seat %d to move", now.Status, now.Turn, now.You, d.Seat)
	}
	if !slices.Equal(now.Scores, was.Scores) || !slices.Equal(now.Hand.Line, was.Hand.Line) || now.Hand.Number != was.Hand.Number ||
		now.Hand.Boneyard != was.Hand.Boneyard || !slices.Equal(sortedTiles(now.You.Tiles), sortedTiles(was.Hand.Hands[d.Seat])) {
		t.Fatalf("the branch's position differs from the match's before %d:\n%+v %+v\n%+v %+v", d.Seq, now.Hand, now.You, was.Hand, was.Scores)
	}
	for i, s := range now.Seats {
		if s.Tiles != len(was.Hand.Hands[i]) || (i != d.Seat && s.Kind != "bot") {
			t.Fatalf("seat %d: %+v, the match's held %d tiles", i, s, len(was.Hand.Hands[i]))
		}
	}
	if now.Hand.Hands != nil || now.Hand.BoneyardTiles != nil {
		t.Fatalf("the branch shows hidden tiles to its seat: %+v", now.Hand)
	}
	if len(now.LegalMoves) != len(d.Candidates) {
		t.Fatalf("%d legal moves in the branch, %d candidates in the review", len(now.LegalMoves), len(d.Candidates))
	}
	for i, m := range now.LegalMoves {
		if c := d.Candidates[i].Move; m.Action != c.Action || m.Tile != c.Tile || m.End != c.End {
			t.Fatalf("legal move %d: %+v, the review's %+v", i, m, c)
		}
	}
	child := &table{h: tb.h, id: now.ID, tokens: map[int]string{d.Seat: out.Token}}
	if v := child.view(-1); v.Hand.Hands != nil || v.You != nil {
		t.Fatalf("a spectator of a live branch sees %+v %+v", v.Hand, v.You)
	}
	return child
}

// reviewOf is tb's review on a small budget, computed apart: its decisions' seqs and moves.
func (tb *table) reviewOf() *analysis.Result {
	tb.h.t.Helper()
	res, err := analysis.Review(tb.h.t.Context(), tb.fullLog(), apitest.SmallReview)
	if err != nil || len(res.Decisions) < 2 {
		tb.h.t.Fatalf("review: %v, %d decisions", err, len(res.Decisions))
	}
	return res
}

// TestBranchPlaysOnFromTheDecision: a branch of a finished match before a decision of its
// second hand is the match's position for the deciding seat and hides the others' hands; it
// plays to its end, audits, and its branch (of a branch) does too. Refusals: a live match,
// a step that is not a decision or outside the log, an unknown bot.
func TestBranchPlaysOnFromTheDecision(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers())
	tb := h.finishedMatch(seed1)
	res := tb.reviewOf()
	d := res.Decisions[len(res.Decisions)/2]
	child := tb.branchAt(d)
	v := child.playOut(nil)
	if v.Status != "finished" || v.BranchOf == nil {
		t.Fatalf("the branch ended %s, branch_of %+v", v.Status, v.BranchOf)
	}
	if rep := child.audit(-1); !rep.OK {
		t.Fatalf("the branch's audit: %+v", rep)
	}
	grand := child.branchAt(child.reviewOf().Decisions[0])
	if v := grand.playOut(nil); v.Status != "finished" {
		t.Fatalf("the branch of a branch ended %s", v.Status)
	}
	if rep := grand.audit(-1); !rep.OK {
		t.Fatalf("the branch of a branch's audit: %+v", rep)
	}

	tb.branch(1, "greedy", 409).problem(t, 409, "NOT_A_DECISION")
	tb.branch(2, "greedy", 409).problem(t, 409, "NOT_A_DECISION")
	tb.branch(9999, "greedy", 400).problem(t, 400, "INVALID_REQUEST")
	tb.branch(d.Seq, "nobody", 400).problem(t, 400, "INVALID_REQUEST")
	h.do(http.MethodPost, tb.path("/branches"), `{"step":5}`).problem(t, 400, "INVALID_REQUEST")
	h.do(http.MethodPost, tb.path("/branches"), api.CreateBranchRequest{Step: d.Seq, Bot: "greedy"}, auth("not-a-token")...).problem(t, 401, "UNAUTHORIZED")
	live := h.create(seed1, false, "human", "greedy")
	live.branch(3, "greedy", 409).problem(t, 409, "MATCH_NOT_FINISHED")
}

// TestBranchesCountAsMatchesOfBots: a branch takes from the bots-only limit of its caller's
// address, as a create of a match of bots only does.
func TestBranchesCountAsMatchesOfBots(t *testing.T) {
	h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: api.Limits{BotMatches: hour(2)}})
	tb := h.create(seed1, false, "human", "greedy")
	tb.playOut(nil)
	step := tb.reviewOf().Decisions[0].Seq
	body := api.CreateBranchRequest{Step: step, Bot: "greedy"}
	served(t, h.from(clientA, http.MethodPost, tb.path("/branches"), body), http.StatusCreated)
	served(t, h.from(clientA, http.MethodPost, "/api/v1/matches", botsBody()), http.StatusCreated)
	limited(t, h.from(clientA, http.MethodPost, tb.path("/branches"), body))
	limited(t, h.from(clientA, http.MethodPost, "/api/v1/matches", botsBody()))
	served(t, h.from(clientB, http.MethodPost, tb.path("/branches"), body), http.StatusCreated)
}
