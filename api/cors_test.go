package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
)

func TestCORSAllowsTheConfiguredOrigins(t *testing.T) {
	h, _ := newFileHarness(t, func(c *api.Config) { c.CORSOrigins = []string{"https://play.example"} })
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
	h := newHarness(t, options{})
	tb := h.create(seed1, false, "human", "human")
	r := h.do(http.MethodGet, tb.path(""), nil, "Origin", "https://play.example")
	if r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("CORS headers without --cors-origins: %v", r.header)
	}
}
