package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestPagesAndAssets checks, without a browser, that the client's pages and files are served
// with their types and a policy that keeps them to this origin, that anything else under
// /assets/ is the API's usual 404 problem, and that the API's own routes are untouched.
func TestPagesAndAssets(t *testing.T) {
	s := newSite(t)
	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}
	pages := map[string]string{"/": "home.js", "/play/abc": "play.js", "/play/": "play.js", "/play": "play.js", "/replay/abc": "replay.js", "/leaderboard/2p": "leaderboard.js", "/player/abc": "profile.js", "/rules": "rules.js", "/puzzles": "puzzles.js"}
	for path, script := range pages {
		res, body := get(path)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
		if !strings.HasPrefix(body, "<!doctype html>\n<html lang=\"en\">\n<head>\n") || strings.Count(body, "</head>") != 1 || !strings.HasSuffix(body, "</html>\n") {
			t.Errorf("%s is not one whole document, its head first:\n%.300s", path, body)
		}
		if !strings.Contains(body, `src="/assets/`+script+`"`) {
			t.Errorf("%s does not load %s", path, script)
		}
		for _, other := range []string{"http://", "https://", "//"} {
			if strings.Contains(strings.ReplaceAll(body, "http://www.w3.org/2000/svg", ""), `="`+other) {
				t.Errorf("%s refers to another origin (%s)", path, other)
			}
		}
	}
	types := map[string]string{
		"/assets/common.js": "text/javascript", "/assets/player.js": "text/javascript", "/assets/me.js": "text/javascript", "/assets/ratings.js": "text/javascript", "/assets/style.css": "text/css", "/assets/favicon.svg": "image/svg+xml",
		"/assets/i18n/en.json": "application/json", "/assets/i18n/nl.json": "application/json", "/assets/i18n.js": "text/javascript",
	}
	for path, want := range types {
		if res, _ := get(path); res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), want) {
			t.Errorf("%s: %d %s, want %s", path, res.StatusCode, res.Header.Get("Content-Type"), want)
		}
	}
	for _, path := range []string{"/assets/nope.js", "/assets/index.html", "/assets/", "/assets/../web.go", "/replay", "/leaderboard/", "/player/", "/assets/profile.html"} {
		res, body := get(path)
		var p struct {
			Code string `json:"code"`
		}
		if res.StatusCode != 404 || res.Header.Get("Content-Type") != "application/problem+json" || json.Unmarshal([]byte(body), &p) != nil || p.Code != "NOT_FOUND" {
			t.Errorf("%s: %d %s %s, want the 404 problem", path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	for _, path := range []string{"/healthz", "/readyz", "/metrics", "/openapi.yaml", "/swagger/index.html", "/api/v1/matches"} {
		if res, _ := get(path); res.StatusCode != 200 {
			t.Errorf("%s: %d", path, res.StatusCode)
		}
	}
}
