package api_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

const twoHumans = `{"players":[{"name":"Ada","kind":"human"},{"name":"Bo","kind":"human"}]`

// TestBadRequests: every malformed body, header, query or token gets its code and status,
// as problem+json, before anything changes.
func TestBadRequests(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	other := h.create("", false, "human", "human")
	seat0 := auth(tb.tokens[0])
	cases := []struct {
		name, method, path, body string
		hdr                      []string
		status                   int
		code                     string
	}{
		{"malformed JSON", "POST", "/api/v1/matches", `{"players":`, nil, 400, "INVALID_REQUEST"},
		{"unknown field", "POST", "/api/v1/matches", twoHumans + `,"colour":"red"}`, nil, 400, "INVALID_REQUEST"},
		{"trailing data", "POST", "/api/v1/matches", twoHumans + `} {}`, nil, 400, "INVALID_REQUEST"},
		{"wrong type", "POST", "/api/v1/matches", `{"players":"two"}`, nil, 400, "INVALID_REQUEST"},
		{"not an object", "POST", "/api/v1/matches", `[1,2]`, nil, 400, "INVALID_REQUEST"},
		{"empty body", "POST", "/api/v1/matches", ``, nil, 400, "INVALID_REQUEST"},
		{"one player", "POST", "/api/v1/matches", `{"players":[{"name":"Ada","kind":"human"}]}`, nil, 400, "INVALID_REQUEST"},
		{"bad kind", "POST", "/api/v1/matches", `{"players":[{"name":"A","kind":"alien"},{"name":"B","kind":"human"}]}`, nil, 400, "INVALID_REQUEST"},
		{"unknown bot", "POST", "/api/v1/matches", `{"players":[{"name":"A","kind":"bot","bot":"oracle"},{"name":"B","kind":"human"}]}`, nil, 400, "INVALID_REQUEST"},
		{"human with bot", "POST", "/api/v1/matches", `{"players":[{"name":"A","kind":"human","bot":"greedy"},{"name":"B","kind":"human"}]}`, nil, 400, "INVALID_REQUEST"},
		{"empty name", "POST", "/api/v1/matches", `{"players":[{"name":" ","kind":"human"},{"name":"B","kind":"human"}]}`, nil, 400, "INVALID_REQUEST"},
		{"bad target", "POST", "/api/v1/matches", twoHumans + `,"target":7}`, nil, 400, "INVALID_REQUEST"},
		{"bad seed", "POST", "/api/v1/matches", twoHumans + `,"seed":"xyz"}`, nil, 400, "INVALID_REQUEST"},
		{"partnerships of two", "POST", "/api/v1/matches", twoHumans + `,"partnerships":true}`, nil, 400, "INVALID_REQUEST"},
		{"form body", "POST", "/api/v1/matches", `players=2`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"bad tile", "POST", tb.path("/moves"), `{"action":"play","tile":"7-7"}`, seat0, 400, "INVALID_REQUEST"},
		{"tile without dash", "POST", tb.path("/moves"), `{"action":"play","tile":"55"}`, seat0, 400, "INVALID_REQUEST"},
		{"bad end", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5","end":"middle"}`, seat0, 400, "INVALID_REQUEST"},
		{"bad action", "POST", tb.path("/moves"), `{"action":"fold"}`, seat0, 400, "INVALID_REQUEST"},
		{"draw with a tile", "POST", tb.path("/moves"), `{"action":"draw","tile":"5-5"}`, seat0, 400, "INVALID_REQUEST"},
		{"play without a tile", "POST", tb.path("/moves"), `{"action":"play"}`, seat0, 400, "INVALID_REQUEST"},
		{"move unknown field", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5","side":"left"}`, seat0, 400, "INVALID_REQUEST"},
		{"If-Match garbage", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, append([]string{"If-Match", "soon"}, seat0...), 400, "INVALID_REQUEST"},
		{"If-Match weak", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, append([]string{"If-Match", `W/"2-0"`}, seat0...), 400, "INVALID_REQUEST"},
		{"If-Match zero", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, append([]string{"If-Match", "0"}, seat0...), 400, "INVALID_REQUEST"},
		{"long Idempotency-Key", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, append([]string{"Idempotency-Key", strings.Repeat("k", 201)}, seat0...), 400, "INVALID_REQUEST"},
		{"Idempotency-Key with space", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, append([]string{"Idempotency-Key", "a b"}, seat0...), 400, "INVALID_REQUEST"},
		{"events after<0", "GET", tb.path("/events?after=-1"), "", nil, 400, "INVALID_REQUEST"},
		{"events limit 0", "GET", tb.path("/events?limit=0"), "", nil, 400, "INVALID_REQUEST"},
		{"events limit 1001", "GET", tb.path("/events?limit=1001"), "", nil, 400, "INVALID_REQUEST"},
		{"events after text", "GET", tb.path("/events?after=x"), "", nil, 400, "INVALID_REQUEST"},
		{"events unknown param", "GET", tb.path("/events?from=1"), "", nil, 400, "INVALID_REQUEST"},
		{"events repeated param", "GET", tb.path("/events?limit=1&limit=2"), "", nil, 400, "INVALID_REQUEST"},
		{"history bad status", "GET", "/api/v1/matches?status=done", "", nil, 400, "INVALID_REQUEST"},
		{"history bad since", "GET", "/api/v1/matches?since=yesterday", "", nil, 400, "INVALID_REQUEST"},
		{"history until before since", "GET", "/api/v1/matches?since=2025-02-01T00:00:00Z&until=2025-01-01T00:00:00Z", "", nil, 400, "INVALID_REQUEST"},
		{"history limit 101", "GET", "/api/v1/matches?limit=101", "", nil, 400, "INVALID_REQUEST"},
		{"history bad cursor", "GET", "/api/v1/matches?cursor=garbage", "", nil, 400, "INVALID_REQUEST"},
		{"history unknown param", "GET", "/api/v1/matches?sort=asc", "", nil, 400, "INVALID_REQUEST"},
		{"state with a query", "GET", tb.path("?x=1"), "", nil, 400, "INVALID_REQUEST"},
		{"move without token", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, nil, 401, "UNAUTHORIZED"},
		{"move with a bad token", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, auth("nope"), 401, "UNAUTHORIZED"},
		{"move with another match's token", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, auth(other.tokens[0]), 401, "UNAUTHORIZED"},
		{"basic auth", "POST", tb.path("/moves"), `{"action":"play","tile":"5-5"}`, []string{"Authorization", "Basic YTpi"}, 401, "UNAUTHORIZED"},
		{"empty bearer", "GET", tb.path(""), "", []string{"Authorization", "Bearer "}, 401, "UNAUTHORIZED"},
		{"state with a bad token", "GET", tb.path(""), "", auth("nope"), 401, "UNAUTHORIZED"},
		{"legal moves as a spectator", "GET", tb.path("/legal-moves"), "", nil, 401, "UNAUTHORIZED"},
		{"events with a bad token", "GET", tb.path("/events"), "", auth("nope"), 401, "UNAUTHORIZED"},
		{"unknown match", "GET", "/api/v1/matches/0123456789abcdef0123456789abcdef", "", nil, 404, "MATCH_NOT_FOUND"},
		{"move on an unknown match", "POST", "/api/v1/matches/nope/moves", `{"action":"draw"}`, seat0, 404, "MATCH_NOT_FOUND"},
		{"events of an unknown match", "GET", "/api/v1/matches/nope/events", "", nil, 404, "MATCH_NOT_FOUND"},
		{"legal moves of an unknown match", "GET", "/api/v1/matches/nope/legal-moves", "", seat0, 404, "MATCH_NOT_FOUND"},
		{"unknown route", "GET", "/api/v2/matches", "", nil, 404, "NOT_FOUND"},
		{"wrong method", "DELETE", "/api/v1/matches", "", nil, 405, "METHOD_NOT_ALLOWED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
			if c.body != "" || c.method == "POST" {
				req.Header.Set("Content-Type", "application/json")
			}
			for i := 0; i+1 < len(c.hdr); i += 2 {
				req.Header.Set(c.hdr[i], c.hdr[i+1])
			}
			p := h.serve(req).problem(t, c.status, c.code)
			if p.Detail == "" || p.Instance != req.URL.Path {
				t.Fatalf("problem without detail or instance: %+v", p)
			}
		})
	}
	if v := tb.view(-1); v.Version != 2 {
		t.Fatalf("bad requests changed the match: version %d", v.Version)
	}
}

func TestMethodNotAllowedSaysWhatIs(t *testing.T) {
	h := newHarness(t)
	r := h.do(http.MethodPut, "/api/v1/matches", nil)
	r.problem(t, 405, "METHOD_NOT_ALLOWED")
	if allow := r.header.Get("Allow"); !strings.Contains(allow, "POST") || !strings.Contains(allow, "GET") {
		t.Fatalf("Allow %q", allow)
	}
}

func TestPayloadTooLarge(t *testing.T) {
	h := newHarness(t)
	big := `{"players":[{"name":"` + strings.Repeat("x", 70<<10) + `","kind":"human"}]}`
	h.do(http.MethodPost, "/api/v1/matches", big).problem(t, 413, "PAYLOAD_TOO_LARGE")

	// Without Content-Length (chunked) the limit holds while reading.
	req := httptest.NewRequest(http.MethodPost, "/api/v1/matches", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	h.serve(req).problem(t, 413, "PAYLOAD_TOO_LARGE")
}

func TestRateLimited(t *testing.T) {
	// One request per 1000 s: the second is refused however slow the machine.
	h := newHarness(t, apitest.RateLimit(0.001))
	if r := h.do(http.MethodGet, "/api/v1/matches", nil); r.status != 200 {
		t.Fatalf("first request: %d %s", r.status, r.body)
	}
	r := h.do(http.MethodGet, "/api/v1/matches", nil)
	r.problem(t, 429, "RATE_LIMITED")
	if ra := r.header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Fatalf("Retry-After %q", ra)
	}
	if r := h.do(http.MethodGet, "/healthz", nil); r.status != 200 {
		t.Fatalf("health probes must not be limited: %d", r.status)
	}
	other := httptest.NewRequest(http.MethodGet, "/api/v1/matches", nil)
	other.RemoteAddr = "198.51.100.7:4321"
	if r := h.serve(other); r.status != 200 {
		t.Fatalf("another address has its own budget: %d", r.status)
	}
}

func TestPanicIsInternalWithoutDetails(t *testing.T) {
	h := newHarness(t)
	h.e.GET("/test/panic", func(echo.Context) error { panic("secret: the boneyard is 1-2 3-4") })
	r := h.do(http.MethodGet, "/test/panic", nil)
	r.problem(t, 500, "INTERNAL")
	if strings.Contains(string(r.body), "secret") || strings.Contains(string(r.body), "1-2") {
		t.Fatalf("a panic's value reached the client: %s", r.body)
	}
}

// failing wraps a store and fails its reads on demand.
type failing struct {
	referee.EventStore
	fail bool
}

func (f *failing) Match(ctx context.Context, id string) (referee.StoredMatch, error) {
	if f.fail {
		return referee.StoredMatch{}, errors.New("disk on fire at /var/lib/allfives")
	}
	return f.EventStore.Match(ctx, id)
}

func (f *failing) Events(ctx context.Context, id string, after, limit int) ([]domain.Event, error) {
	if f.fail {
		return nil, errors.New("disk on fire at /var/lib/allfives")
	}
	return f.EventStore.Events(ctx, id, after, limit)
}

func TestFailingStoreIsInternal(t *testing.T) {
	f := &failing{fail: true}
	h := newHarness(t, apitest.WrapStore(func(s referee.EventStore) referee.EventStore { f.EventStore = s; return f }))
	r := h.do(http.MethodGet, "/api/v1/matches/0123456789abcdef0123456789abcdef", nil)
	r.problem(t, 500, "INTERNAL")
	if strings.Contains(string(r.body), "fire") {
		t.Fatalf("a store error reached the client: %s", r.body)
	}
}

type notReady struct{}

func (notReady) Ping(context.Context) error { return errors.New("database is locked") }

func TestReadyzFailsWithoutTheDatabase(t *testing.T) {
	h := newHarness(t, apitest.Ready(notReady{}))
	h.do(http.MethodGet, "/readyz", nil).problem(t, 503, "NOT_READY")
	if r := h.do(http.MethodGet, "/healthz", nil); r.status != 200 {
		t.Fatalf("healthz: %d", r.status)
	}
}
