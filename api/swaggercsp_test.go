package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
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

// TestSwaggerDocumentsReadAtOnce: the documents are read by many clients at once (every page
// of the web client asks /swagger/doc.json which routes the server has); each answer is whole
// and the same, and under -race no two reads race.
func TestSwaggerDocumentsReadAtOnce(t *testing.T) {
	h := newHarness(t)
	paths := []string{"/swagger/doc.json", "/swagger/doc.yaml", "/openapi.yaml"}
	bodies := make([][]string, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		bodies[i] = make([]string, 8)
		for j := range bodies[i] {
			wg.Go(func() {
				rec := httptest.NewRecorder()
				h.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
				if rec.Code != http.StatusOK {
					t.Errorf("%s: %d", p, rec.Code)
				}
				bodies[i][j] = rec.Body.String()
			})
		}
	}
	wg.Wait()
	for i, p := range paths {
		if !strings.Contains(bodies[i][0], "/api/v1/matches") {
			t.Errorf("%s does not name the matches route", p)
		}
		for _, b := range bodies[i][1:] {
			if b != bodies[i][0] {
				t.Errorf("%s: two reads at once answered differently", p)
			}
		}
	}
}
