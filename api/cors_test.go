package api_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

func TestCORSAllowsTheConfiguredOrigins(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(func(c *api.Config) { c.CORSOrigins = []string{"https://play.example"} }))
	tb := h.create(seed1, false, "human", "human")
	pre := httptest.NewRequest(http.MethodOptions, tb.path("/moves"), nil)
	pre.Header.Set("Origin", "https://play.example")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	pre.Header.Set("Access-Control-Request-Headers", "authorization, if-match, idempotency-key, content-type")
	rec := httptest.NewRecorder()
	h.e.ServeHTTP(rec, pre)
	allowed := strings.ToLower(rec.Header().Get("Access-Control-Allow-Headers"))
	if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != "https://play.example" {
		t.Fatalf("preflight: %d %v", rec.Code, rec.Header())
	}
	for _, want := range []string{"authorization", "if-match", "idempotency-key", "last-event-id"} {
		if !strings.Contains(allowed, want) {
			t.Errorf("preflight does not allow %s: %q", want, allowed)
		}
	}
	r := h.do(http.MethodGet, tb.path(""), nil, "Origin", "https://play.example")
	if r.header.Get("Access-Control-Allow-Origin") != "https://play.example" || !strings.Contains(r.header.Get("Access-Control-Expose-Headers"), "ETag") {
		t.Fatalf("GET from the origin: %v", r.header)
	}
	other := h.do(http.MethodGet, tb.path(""), nil, "Origin", "https://evil.example")
	if other.header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("another origin is allowed: %v", other.header)
	}
}

func TestNoCORSByDefault(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	r := h.do(http.MethodGet, tb.path(""), nil, "Origin", "https://play.example")
	if r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("CORS headers without --cors-origins: %v", r.header)
	}
}

// preflight asks, as a browser on origin would, whether it may POST a move with a seat token.
func preflight(h *harness, origin string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodOptions, "/api/v1/matches/m/moves", nil)
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	rec := httptest.NewRecorder()
	h.e.ServeHTTP(rec, req)
	return rec
}

// TestRateLimitedAnswerIsReadableCrossOrigin: a 429 to an allowed origin carries the CORS
// headers, so the browser lets the page read it and its Retry-After; without them the page
// sees only a network error and cannot know when to retry.
func TestRateLimitedAnswerIsReadableCrossOrigin(t *testing.T) {
	// One request per 1000 s: the second is refused however slow the machine.
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(func(c *api.Config) {
		c.CORSOrigins, c.RateLimit = []string{"https://play.example"}, 0.001
	}))
	if r := h.do(http.MethodGet, "/api/v1/matches", nil, "Origin", "https://play.example"); r.status != 200 {
		t.Fatalf("first request: %d %s", r.status, r.body)
	}
	r := h.do(http.MethodGet, "/api/v1/matches", nil, "Origin", "https://play.example")
	r.problem(t, 429, "RATE_LIMITED")
	if got := r.header.Get("Access-Control-Allow-Origin"); got != "https://play.example" {
		t.Errorf("429 Access-Control-Allow-Origin %q", got)
	}
	exposed := strings.Split(strings.ToLower(r.header.Get("Access-Control-Expose-Headers")), ",")
	if !slices.Contains(exposed, "retry-after") || r.header.Get("Retry-After") == "" {
		t.Errorf("429 does not expose Retry-After: %v", r.header)
	}
}

// TestPreflightsDoNotDrainTheRateLimit: a browser sends a preflight before most cross-origin
// calls; counting them would halve a page's budget, and answering one costs no more than
// refusing it. Preflights far beyond the burst leave the real request its token.
func TestPreflightsDoNotDrainTheRateLimit(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(func(c *api.Config) {
		c.CORSOrigins, c.RateLimit = []string{"https://play.example"}, 0.001 // a burst of one
	}))
	for i := range 5 {
		rec := preflight(h, "https://play.example")
		if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != "https://play.example" {
			t.Fatalf("preflight %d: %d %v", i, rec.Code, rec.Header())
		}
	}
	if r := h.do(http.MethodGet, "/api/v1/matches", nil, "Origin", "https://play.example"); r.status != 200 {
		t.Fatalf("the request after the preflights: %d %s", r.status, r.body)
	}
	// The limit still holds for the real requests: the burst of one is spent now.
	h.do(http.MethodGet, "/api/v1/matches", nil, "Origin", "https://play.example").problem(t, 429, "RATE_LIMITED")
	if rec := preflight(h, "https://play.example"); rec.Code != http.StatusNoContent {
		t.Fatalf("a preflight once the bucket is empty: %d", rec.Code)
	}
}
