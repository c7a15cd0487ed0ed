package api_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// TestETags: the state's ETag names version and viewer; If-None-Match answers 304 until the
// match moves; the ETag is what If-Match takes on a move.
func TestETags(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	r := h.do(http.MethodGet, tb.path(""), nil, auth(tb.tokens[0])...)
	tag := r.header.Get("ETag")
	if tag != `"2-0"` {
		t.Fatalf("seat 0's ETag %q", tag)
	}
	if s := h.do(http.MethodGet, tb.path(""), nil).header.Get("ETag"); s != `"2-s"` {
		t.Fatalf("a spectator's ETag %q", s)
	}
	r = h.do(http.MethodGet, tb.path(""), nil, append(auth(tb.tokens[0]), "If-None-Match", tag)...)
	if r.status != http.StatusNotModified || len(r.body) != 0 || r.header.Get("ETag") != tag {
		t.Fatalf("If-None-Match %s: %d %q", tag, r.status, r.body)
	}
	// Seat 1's tag differs: seat 0's cached copy must not satisfy seat 1.
	if r := h.do(http.MethodGet, tb.path(""), nil, append(auth(tb.tokens[1]), "If-None-Match", tag)...); r.status != 200 {
		t.Fatalf("seat 1 with seat 0's tag: %d", r.status)
	}
	res := tb.move(0, play("5-5", ""), "If-Match", tag)
	if res.status != 200 || res.header.Get("ETag") != `"3-0"` {
		t.Fatalf("move with If-Match %s: %d, ETag %q", tag, res.status, res.header.Get("ETag"))
	}
	if r := h.do(http.MethodGet, tb.path(""), nil, append(auth(tb.tokens[0]), "If-None-Match", tag)...); r.status != 200 {
		t.Fatalf("a stale If-None-Match got %d", r.status)
	}
	p := tb.move(1, api.MoveRequest{Action: "draw"}, "If-Match", "2").problem(t, 409, "VERSION_CONFLICT")
	if p.CurrentVersion == nil || *p.CurrentVersion != 3 {
		t.Fatalf("current_version %v", p.CurrentVersion)
	}
}

func TestEventsPaging(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	tb.mustMove(0, play("5-5", ""))
	var page api.EventsResponse
	h.do(http.MethodGet, tb.path("/events"), nil).decode(t, &page)
	if len(page.Events) != 3 || page.Version != 3 || page.Events[0].Seq != 1 || page.Events[0].Type != "match.created" {
		t.Fatalf("default page: %+v", page)
	}
	h.do(http.MethodGet, tb.path("/events?after=1&limit=1"), nil).decode(t, &page)
	if len(page.Events) != 1 || page.Events[0].Seq != 2 || page.Version != 3 {
		t.Fatalf("after=1&limit=1: %+v", page)
	}
	h.do(http.MethodGet, tb.path("/events?after=3"), nil).decode(t, &page)
	if len(page.Events) != 0 || page.Version != 3 {
		t.Fatalf("after the end: %+v", page)
	}
}

func TestHistory(t *testing.T) {
	h := newHarness(t)
	since := time.Now().UTC().Add(-time.Minute).Format(time.RFC3339)
	ids := map[string]bool{}
	for i := range 3 {
		tb := h.create(fmt.Sprintf("%064x", i+100), false, "human", "human")
		ids[tb.id] = true
	}
	done := h.create("", false, "random", "greedy")
	var page api.HistoryResponse
	h.do(http.MethodGet, "/api/v1/matches?status=finished", nil).decode(t, &page)
	if len(page.Matches) != 1 || page.Matches[0].ID != done.id || page.Matches[0].WinnerSide == nil || page.NextCursor != nil {
		t.Fatalf("finished: %+v", page)
	}
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; ; pages++ {
		q := "/api/v1/matches?status=in_progress&limit=2&since=" + since
		if cursor != "" {
			q += "&cursor=" + cursor
		}
		h.do(http.MethodGet, q, nil).decode(t, &page)
		for _, m := range page.Matches {
			if m.Status != "in_progress" || m.WinnerSide != nil || len(m.Players) != 2 {
				t.Fatalf("in progress item: %+v", m)
			}
			seen[m.ID] = true
		}
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
		if pages > 3 {
			t.Fatal("paging does not end")
		}
	}
	if len(seen) != len(ids) {
		t.Fatalf("paged through %v, want %v", seen, ids)
	}
	for id := range ids {
		if !seen[id] {
			t.Fatalf("paging missed %s", id)
		}
	}
	h.do(http.MethodGet, "/api/v1/matches?player=p1&limit=100", nil).decode(t, &page)
	if len(page.Matches) != 4 {
		t.Fatalf("player=p1: %d matches", len(page.Matches))
	}
	// until is exclusive: nothing was made before the earliest time there is, nor before a
	// year before it, though the first is the zero time the stores take for "not given".
	for _, until := range []string{"0001-01-01T00:00:00Z", "0000-12-31T00:00:00Z", "0001-01-01T00:00:00.000000001Z"} {
		h.do(http.MethodGet, "/api/v1/matches?limit=100&until="+until, nil).decode(t, &page)
		if len(page.Matches) != 0 || page.NextCursor != nil {
			t.Fatalf("until=%s: %d matches", until, len(page.Matches))
		}
	}
	h.do(http.MethodGet, "/api/v1/matches?limit=100&since=0001-01-01T00:00:00Z", nil).decode(t, &page)
	if len(page.Matches) != 4 {
		t.Fatalf("since the earliest time: %d matches", len(page.Matches))
	}
}

func TestRequestIDs(t *testing.T) {
	h := newHarness(t)
	if r := h.do(http.MethodGet, "/healthz", nil, "X-Request-ID", "trace-42"); r.header.Get("X-Request-ID") != "trace-42" {
		t.Fatalf("a plain client ID is kept: %q", r.header.Get("X-Request-ID"))
	}
	r := h.do(http.MethodGet, "/healthz", nil, "X-Request-ID", "evil\"id with spaces")
	if id := r.header.Get("X-Request-ID"); !regexp.MustCompile(`^[0-9a-f]{24}$`).MatchString(id) {
		t.Fatalf("an unsafe client ID must be replaced, got %q", id)
	}
}

func TestMetrics(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	tb.mustMove(0, play("5-5", ""))
	h.do(http.MethodGet, "/api/v1/matches/nope", nil)
	body := string(h.do(http.MethodGet, "/metrics", nil).body)
	for _, want := range []string{
		`allfives_http_requests_total{method="POST",route="/api/v1/matches",status="201"} 1`,
		`allfives_http_requests_total{method="GET",route="/api/v1/matches/:id",status="404"} 1`,
		`allfives_http_request_duration_seconds_bucket{method="POST",route="/api/v1/matches/:id/moves",le="+Inf"} 1`,
		`allfives_moves_total{action="play"} 1`,
		`allfives_live_matches 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
