package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/reviews"
)

// TestReviewStateInTheView: a finished match's view and its export say where its review
// stands, none before it is asked for, running while it is computed and done after, on
// SQLite and on PostgreSQL; the view's ETag follows, so a client holding the old tag is not
// told nothing changed. A live match's view and export say nothing of a review, to a
// spectator or a seat.
func TestReviewStateInTheView(t *testing.T) {
	run := func(t *testing.T, opts ...apitest.Option) {
		g := newGatedEngine()
		h := newHarness(t, append(opts, apitest.WithoutPlayers(), apitest.Reviews(func(c *reviews.Config) { c.Engine = g.review }))...)
		live := h.create(seed1, false, "human", "greedy")
		for _, seat := range []int{-1, 0} {
			if got := live.reviewField(seat, ""); got != nil {
				t.Fatalf("seat %d: a live match's view says review %q", seat, *got)
			}
			if got := live.reviewField(seat, "/export"); got != nil {
				t.Fatalf("seat %d: a live match's export says review %q", seat, *got)
			}
		}

		tb := h.finishedMatch(seed1)
		before := tb.wantReviewState("none", "-vn")
		tb.askReview(http.StatusAccepted)
		<-g.started
		running := tb.wantReviewState("running", "-vr")
		if r := h.do(http.MethodGet, tb.path(""), nil, "If-None-Match", before); r.status != http.StatusOK {
			t.Fatalf("the tag of the view before the review was asked for still matches: %d", r.status)
		}
		close(g.open)
		waitReviews(t, h.Reviews)
		done := tb.wantReviewState("done", "-vd")
		if running == done || before == done {
			t.Fatalf("the view's tag did not follow its review: %s, %s, %s", before, running, done)
		}
		if r := h.do(http.MethodGet, tb.path(""), nil, "If-None-Match", done); r.status != http.StatusNotModified {
			t.Fatalf("the current tag answers %d, not 304", r.status)
		}
		rv := strictReview(t, tb.getReview(http.StatusOK).body)
		if rv.Status != "done" {
			t.Fatalf("the review the view calls done is %q", rv.Status)
		}
	}
	t.Run("sqlite", func(t *testing.T) { run(t, apitest.WithStore(sqliteReviewStore(t))) })
	t.Run("postgres", func(t *testing.T) { run(t, apitest.Postgres()) })
}

// reviewField is the review field of the view (suffix "") or the export's match (suffix
// "/export") as seat reads it (seat < 0: a spectator); nil when absent.
func (tb *table) reviewField(seat int, suffix string) *string {
	tb.h.t.Helper()
	var out struct {
		Review *string `json:"review"`
		Match  struct {
			Review *string `json:"review"`
		} `json:"match"`
	}
	r := tb.fetch(suffix, seat, &out)
	if suffix == "" {
		if bytes.Contains(r.body, []byte(`"review"`)) != (out.Review != nil) {
			tb.h.t.Fatalf("the view's body: %s", r.body)
		}
		return out.Review
	}
	return out.Match.Review
}

// wantReviewState checks that a spectator's view and export, and a seat's view, of tb say
// review st, and that the view's tag ends in mark; it returns the spectator's tag.
func (tb *table) wantReviewState(st, mark string) string {
	t := tb.h.t
	t.Helper()
	seats := []int{-1}
	for seat := range tb.tokens {
		seats = append(seats, seat)
	}
	for _, seat := range seats {
		for _, suffix := range []string{"", "/export"} {
			if got := tb.reviewField(seat, suffix); got == nil || *got != st {
				t.Fatalf("seat %d, GET %q: review %v, want %q", seat, suffix, got, st)
			}
		}
	}
	r := tb.fetch("", -1, nil)
	tag := r.header.Get("ETag")
	if !strings.HasSuffix(tag, mark+`"`) {
		t.Fatalf("review %s: the view's tag %s does not end in %s", st, tag, mark)
	}
	var v api.MatchView
	if err := json.Unmarshal(r.body, &v); err != nil || v.Review != st {
		t.Fatalf("the view as api.MatchView: review %q, %v", v.Review, err)
	}
	return tag
}
