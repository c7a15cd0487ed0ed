package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// TestBodyNotUTF8 refuses a JSON body whose strings are not text: raw bytes that are not
// UTF-8, and \u escapes of half a surrogate pair, which encoding/json would both have kept
// as U+FFFD; a whole pair is a character like any other.
func TestBodyNotUTF8(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ name, body, detail string }{
		{"a byte that is not UTF-8", "{\"name\":\"B\xffob\"}", "malformed JSON body: the body is not UTF-8 text"},
		{"a lone first half", `{"name":"B\ud800ob"}`, "malformed JSON body: a string holds half a surrogate pair (a \\u escape of U+D800 to U+DBFF without its second half)"},
		{"a first half at the end", `{"name":"Bob\ud83d"}`, "malformed JSON body: a string holds half a surrogate pair (a \\u escape of U+D800 to U+DBFF without its second half)"},
		{"a lone second half", `{"name":"B\udc00ob"}`, "malformed JSON body: a string holds half a surrogate pair (a \\u escape of U+DC00 to U+DFFF without its first half)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := h.do(http.MethodPost, "/api/v1/players", c.body).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			if p.Detail != c.detail {
				t.Fatalf("detail %q, want %q", p.Detail, c.detail)
			}
			// Nothing was kept: no player goes by the name with U+FFFD in it.
			h.do(http.MethodGet, "/api/v1/players?name=B%EF%BF%BDob", nil).problem(t, http.StatusNotFound, "PLAYER_NOT_FOUND")
		})
	}
	// An escaped backslash before a u is no escape; a whole pair is one character.
	for body, want := range map[string]string{`{"name":"Ann \\ud800"}`: `Ann \ud800`, `{"name":"Ann \u00e9\ud83c\udf1f"}`: "Ann é🌟"} {
		r := h.do(http.MethodPost, "/api/v1/players", body)
		var out api.CreatePlayerResponse
		if r.status != http.StatusCreated {
			t.Fatalf("%s: %d %s", body, r.status, r.body)
		}
		if r.decode(t, &out); out.Player.Name != want {
			t.Fatalf("%s kept as %q, want %q", body, out.Player.Name, want)
		}
	}
	// A move's body is read the same way.
	tb := h.create(seed1, false, "human", "greedy")
	p := tb.h.do(http.MethodPost, tb.path("/moves"), "{\"action\":\"play\",\"tile\":\"5-5\xff\"}", auth(tb.tokens[0])...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	if p.Detail != "malformed JSON body: the body is not UTF-8 text" {
		t.Fatalf("a move not UTF-8: %q", p.Detail)
	}
}

// TestBodilessPosts: a POST that takes no body takes none, or {}; anything else is 400,
// before the route does anything.
func TestBodilessPosts(t *testing.T) {
	h := newHarness(t)
	ada := h.newPlayer("Ada")
	waiting, invites := createSeated(t, h, false)
	waiting.tokens[1] = waiting.mustJoin(1, "Joiner", invites[1]).Token
	finished := h.create("", false, "greedy", "random")
	routes := []struct {
		name, path string
		cred       func() string
		status     int // the answer to no body and to {}
	}{
		{"rotate a key", "/api/v1/players/me/key", func() string { return ada.Key }, http.StatusOK},
		{"a player ticket", "/api/v1/players/me/tickets", func() string { return ada.Key }, http.StatusCreated},
		{"a seat ticket", waiting.path("/tickets"), func() string { return waiting.tokens[0] }, http.StatusCreated},
		{"a review", finished.path("/review"), func() string { return "" }, http.StatusServiceUnavailable}, // this server reviews nothing
		{"a rematch", finished.path("/rematch"), func() string { return "" }, http.StatusUnauthorized},
		{"resume", waiting.path("/seats/0/resume"), func() string { return waiting.tokens[0] }, http.StatusConflict},
		{"leave", waiting.path("/seats/1/leave"), func() string { return waiting.tokens[1] }, http.StatusOK},
	}
	for _, rt := range routes {
		t.Run(rt.name, func(t *testing.T) {
			for _, junk := range []string{"[[[", "{\"x\":1}", "null", "[]", "\"\"", "{} {}"} {
				p := h.do(http.MethodPost, rt.path, junk, bearerOf(rt.cred())...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
				if p.Detail != "this request takes no body: send none, or {}" {
					t.Fatalf("%s: detail %q", junk, p.Detail)
				}
			}
			for _, none := range []any{nil, "{}", " { \n } "} {
				r := h.do(http.MethodPost, rt.path, none, bearerOf(rt.cred())...)
				if r.status != rt.status {
					t.Fatalf("body %v: %d %s, want %d", none, r.status, r.body, rt.status)
				}
				switch rt.name {
				case "rotate a key":
					var k api.PlayerKeyResponse
					r.decode(t, &k)
					ada.Key = k.Key
				case "leave":
					waiting.tokens[1] = waiting.mustJoin(1, "Joiner", invites[1]).Token
				}
			}
		})
	}
}

// bearerOf is auth(cred), or no header for "".
func bearerOf(cred string) []string {
	if cred == "" {
		return nil
	}
	return auth(cred)
}

// TestPlayerKeyNotInURL: a player key is refused wherever a URL carries it, a stream's
// ?token= above all, with the way to open a stream without it; the path logged and shown in
// the problem does not hold it.
func TestPlayerKeyNotInURL(t *testing.T) {
	h := newHarness(t)
	ada := h.newPlayer("Ada")
	tb := h.createMatchWith(ada.Key, api.CreateMatchRequest{Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Name: "Greedy", Kind: "bot", Bot: "greedy"},
	}})
	escaped := "%61" + strings.TrimPrefix(ada.Key, "a") // the same key, its first letter escaped
	for _, path := range []string{
		tb.path("/stream?token=" + ada.Key),
		tb.path("/stream?token=" + escaped),
		"/api/v1/players/me/stream?ticket=" + ada.Key,
		tb.path("?token=" + ada.Key),
		"/api/v1/players/" + ada.Key,
		"/api/v1/players/" + ada.Key + "/matches?turn=me",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // a stream it opened would end then
		req := httptest.NewRequest(http.MethodGet, path, nil).WithContext(ctx)
		r := h.serve(req)
		cancel()
		p := r.problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, "a player key never goes in a URL") || !strings.Contains(p.Detail, "POST /api/v1/players/me/tickets") {
			t.Fatalf("%s: detail %q", path, p.Detail)
		}
		if strings.Contains(p.Instance, ada.Key) || strings.Contains(string(r.body), ada.Key[4:]) {
			t.Fatalf("%s: the problem shows the key: %s", path, r.body)
		}
	}
	// A seat token is no player key: a match stream still takes it (old clients send it).
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	rec := httptest.NewRecorder()
	h.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tb.path("/stream?token="+tb.tokens[0]), nil).WithContext(ctx))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "event:") {
		t.Fatalf("a stream with a seat token: %d %s", rec.Code, rec.Body)
	}
}
