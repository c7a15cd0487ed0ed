package api_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// explore GETs the options of decision step of tb, answered with want.
func (tb *table) explore(step string, want int, hdr ...string) *reply {
	tb.h.t.Helper()
	r := tb.h.do(http.MethodGet, tb.path("/analysis?step="+step), nil, hdr...)
	if r.status != want {
		tb.h.t.Fatalf("GET analysis?step=%s: %d, want %d: %s", step, r.status, want, r.body)
	}
	return r
}

// TestExploreIsTheReview: every decision of a finished match explored before its review is
// stored (computed) and after (read from it) answers the review's values, made by the same
// build: the same options in order, the played and the best moves marked, the same bytes
// both ways. Every other event is 409 NOT_A_DECISION, a step outside the log or not a
// number 400, a live match 409 MATCH_NOT_FINISHED whatever the step.
func TestExploreIsTheReview(t *testing.T) {
	h := newHarness(t, apitest.WithStore(sqliteReviewStore(t)), apitest.WithoutPlayers(), apitest.Reviews(nil))
	tb := h.finishedMatch(seed1)
	log := tb.fullLog()
	computed := map[int]string{}
	for _, e := range log {
		step := strconv.Itoa(e.Seq)
		r := h.do(http.MethodGet, tb.path("/analysis?step="+step), nil)
		switch r.status {
		case http.StatusOK:
			computed[e.Seq] = string(r.body)
		default:
			r.problem(t, http.StatusConflict, "NOT_A_DECISION")
		}
	}
	for _, step := range []string{"0", strconv.Itoa(len(log) + 1), "last", ""} {
		tb.explore(step, 400).problem(t, 400, "INVALID_REQUEST")
	}
	h.do(http.MethodGet, tb.path("/analysis"), nil).problem(t, 400, "INVALID_REQUEST")
	h.do(http.MethodGet, tb.path("/analysis?step=2&x=1"), nil).problem(t, 400, "INVALID_REQUEST")
	h.do(http.MethodGet, tb.path("/analysis?step=2"), nil, auth("not-a-token")...).problem(t, 401, "UNAUTHORIZED")
	h.do(http.MethodGet, "/api/v1/matches/nosuchmatch/analysis?step=2", nil).problem(t, 404, "MATCH_NOT_FOUND")

	tb.askReview(http.StatusAccepted)
	waitReviews(t, h.Reviews)
	rv := strictReview(t, tb.getReview(http.StatusOK).body)
	if len(rv.Decisions) == 0 || len(rv.Decisions) != len(computed) {
		t.Fatalf("%d decisions reviewed, %d explored", len(rv.Decisions), len(computed))
	}
	for _, d := range rv.Decisions {
		var x api.Analysis
		stored := tb.explore(strconv.Itoa(d.Seq), http.StatusOK)
		stored.decode(t, &x)
		if string(stored.body) != computed[d.Seq] {
			t.Fatalf("seq %d: stored %s, computed %s", d.Seq, stored.body, computed[d.Seq])
		}
		if x.Step != d.Seq || x.Seat != d.Seat || len(x.Options) != len(d.Candidates) {
			t.Fatalf("seq %d: explored %+v, reviewed %+v", d.Seq, x, d)
		}
		for i, o := range x.Options {
			c := d.Candidates[i]
			if o.Move != c.Move || o.Value != c.Value || o.Played != (c.Move == d.Played) || o.Best != (c.Move == d.Best) {
				t.Fatalf("seq %d option %d: %+v, reviewed %+v", d.Seq, i, o, c)
			}
		}
	}
	for _, e := range log {
		if _, ok := computed[e.Seq]; !ok {
			tb.explore(strconv.Itoa(e.Seq), http.StatusConflict).problem(t, http.StatusConflict, "NOT_A_DECISION")
		}
	}

	live := h.create(seed1, false, "human", "greedy")
	for _, step := range []string{"2", "last", "0"} {
		live.explore(step, 409).problem(t, 409, "MATCH_NOT_FINISHED")
	}
	live.explore("2", 409, auth(live.tokens[0])...).problem(t, 409, "MATCH_NOT_FINISHED")
}
