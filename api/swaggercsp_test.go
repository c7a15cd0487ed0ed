package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestSwaggerUIHasItsPolicy: Swagger UI shares the web client's origin, and with it the seat
// tokens in localStorage, so every answer under /swagger/ (the page, its assets, its 404s)
// carries a Content-Security-Policy that keeps scripts, styles and connections to the origin,
// allows the page's inline script and style only by hash, and forbids framing.
func TestSwaggerUIHasItsPolicy(t *testing.T) {
	h := newHarness(t)
	get := func(p string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		return rec
	}
	var policy string
	for _, p := range []string{"/swagger/index.html", "/swagger/index.html?x=1", "/swagger/doc.json", "/swagger/swagger-ui.css",
		"/swagger/swagger-ui-bundle.js", "/swagger/favicon-32x32.png", "/swagger/nope"} {
		rec := get(p)
		csp := rec.Header().Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "connect-src 'self'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: the policy %q lacks %s", p, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") || strings.Contains(csp, "*") {
			t.Errorf("%s: the policy %q allows more than the origin and hashes", p, csp)
		}
		if rec.Header().Get("X-Frame-Options") != "DENY" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Frame-Options %q, X-Content-Type-Options %q", p, rec.Header().Get("X-Frame-Options"), rec.Header().Get("X-Content-Type-Options"))
		}
		if policy == "" {
			policy = csp
		} else if csp != policy {
			t.Errorf("%s: policy %q differs from the page's %q", p, csp, policy)
		}
	}
	// The page's own inline script and style block are the ones the hashes allow.
	page := get("/swagger/index.html").Body.String()
	for _, inline := range regexp.MustCompile(`(?s)<(script|style)>(.*?)</(?:script|style)>`).FindAllStringSubmatch(page, -1) {
		sum := sha256.Sum256([]byte(inline[2]))
		if hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(policy, inline[1]+"-src 'self' "+hash) {
			t.Errorf("the policy %q does not allow the page's inline %s %s", policy, inline[1], hash)
		}
	}
}
