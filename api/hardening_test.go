package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestJSONKeysAreExact: encoding/json alone would match "Action" to action and let the last of
// two equal keys win; a body whose meaning depends on that is refused before anything moves.
func TestJSONKeysAreExact(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	for _, body := range []string{
		`{"action":"draw","action":"play","tile":"5-5"}`,
		`{"action":"play","tile":"5-5","Action":"draw"}`,
		`{"Action":"play","Tile":"5-5"}`,
		`{"action":"play","tile":"4-4","tile":"5-5"}`,
	} {
		p := h.do(http.MethodPost, tb.path("/moves"), body, auth(tb.tokens[0])...).problem(t, 400, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, "more than once") && !strings.Contains(p.Detail, "case-sensitive") {
			t.Errorf("%s: detail %q", body, p.Detail)
		}
	}
	for _, body := range []string{
		`{"players":[{"name":"A","kind":"human","Name":"B"},{"name":"C","kind":"human"}]}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"C","kind":"human"}],"Seed":"00"}`,
	} {
		h.do(http.MethodPost, "/api/v1/matches", body).problem(t, 400, "INVALID_REQUEST")
	}
	if v := tb.view(-1); v.Version != 2 {
		t.Fatalf("an ambiguous body moved: version %d", v.Version)
	}
}

// TestNamesWithoutControlCharacters: a name is printed in the text export, logs and clients;
// one holding a line break could forge a line of the record, and bidirectional marks can make
// one name read as another. Such names are refused; other Unicode is welcome.
func TestNamesWithoutControlCharacters(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"Ada\nseed          00", "Ada\r", "A\tB", "A\u0000", "\u001b[31mRed", "A\u007f", "A\u0085",
		"\u202eadA", "A\u2066B\u2069", "A\u200fB", "A\u2028B", "A\u2029"} {
		req := api.CreateMatchRequest{Players: []api.PlayerRequest{{Name: name, Kind: "human"}, {Name: "Bo", Kind: "human"}}}
		p := h.do(http.MethodPost, "/api/v1/matches", req).problem(t, 400, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, "players[0].name") {
			t.Errorf("%q: detail %q", name, p.Detail)
		}
	}
	tb := h.createMatch(api.CreateMatchRequest{Players: []api.PlayerRequest{{Name: "Zoë 🂡 ♦", Kind: "human"}, {Name: "李 小龍", Kind: "human"}}})
	if v := tb.view(-1); v.Seats[0].Name != "Zoë 🂡 ♦" || v.Seats[1].Name != "李 小龍" {
		t.Fatalf("names: %+v", v.Seats)
	}
}

// TestIfMatchIsOneVersion: If-Match names the one version a move expects. A list of tags, a
// tag with junk after the version, or an empty one is refused, not read as its first digits.
func TestIfMatchIsOneVersion(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	for _, m := range []string{`"2-0", "3-0"`, `"1-0", "2-0"`, `"2-x"`, `"2-0-0"`, `"2-"`, `"2-01"`, `2-0`, `"2`, `""`, `"-2"`,
		`2 2`, `+2`, `"99999999999999999999"`, `0`, `"2-0-r-r"`, `"2-0-x"`, `"2-0-g1234567"`, `"2-0-gzzzzzzzz"`, `"2-g1234abcd"`, `"2-r"`, `"2-0-v"`, `"2-0-vx"`, `"2-0-vd-r"`, `"2-vd"`, `"2-0-vdd"`} {
		tb.move(0, play("5-5", ""), "If-Match", m).problem(t, 400, "INVALID_REQUEST")
	}
	req := httptest.NewRequest(http.MethodPost, tb.path("/moves"), strings.NewReader(`{"action":"play","tile":"5-5"}`))
	req.Header.Set("Authorization", "Bearer "+tb.tokens[0])
	req.Header.Add("If-Match", `"2-0"`)
	req.Header.Add("If-Match", `"2-1"`)
	h.serve(req).problem(t, 400, "INVALID_REQUEST")
	if v := tb.view(-1); v.Version != 2 {
		t.Fatalf("a move with a bad If-Match was made: version %d", v.Version)
	}
	for _, m := range []string{`"2-s"`, ` "2-1" `, `2`, `"2"`, `*`, `"2-1-r"`, `"2-s-g1234abcd"`, `"2-0-r-gf7f80ae7"`, `"2-s-vn"`, `"2-1-r-gf7f80ae7-vd"`, `"2-0-vr"`, `"2-0-vf"`} {
		if r := tb.move(1, api.MoveRequest{Action: "draw"}, "If-Match", m); r.status != 409 {
			t.Fatalf("If-Match %s: %d %s", m, r.status, r.body) // accepted, then not seat 1's turn
		}
	}
	tb.mustMove(0, play("5-5", ""), "If-Match", `"2-0"`)
}

// TestSwaggerUI: Swagger UI's files are served, /swagger/ leads to its page, and any other
// path under /swagger/ is the NOT_FOUND problem every unknown path gets.
func TestSwaggerUI(t *testing.T) {
	h := newHarness(t)
	raw := func(p string) *httptest.ResponseRecorder { // Swagger UI is outside the contract
		rec := httptest.NewRecorder()
		h.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		return rec
	}
	for _, p := range []string{"/swagger/index.html", "/swagger/doc.json", "/swagger/swagger-ui.css", "/swagger/index.html?x=1"} {
		if r := raw(p); r.Code != 200 || r.Body.Len() == 0 {
			t.Errorf("%s: %d", p, r.Code)
		}
	}
	if r := raw("/swagger/"); r.Code != 301 || r.Header().Get("Location") != "/swagger/index.html" {
		t.Errorf("/swagger/: %d to %q", r.Code, r.Header().Get("Location"))
	}
	for _, p := range []string{"/swagger/nope", "/swagger/../../go.mod", "/swagger/x/../../openapi.yaml", "/swagger/%2e%2e/go.mod", "/swagger/.", "/swagger/./index.html"} {
		h.serve(httptest.NewRequest(http.MethodGet, p, nil)).problem(t, 404, "NOT_FOUND")
	}
}

// TestBodiesOnlyWherePosted: only POST routes read a body. A stray body on another method is
// ignored, whatever its size, so each route gives its documented answer; a POST body over the
// limit is still 413.
func TestBodiesOnlyWherePosted(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	big := strings.Repeat("x", api.DefaultBodyLimit+1)
	for _, p := range []string{tb.path(""), tb.path("/events"), "/api/v1/matches", "/healthz"} {
		if r := h.do(http.MethodGet, p, big); r.status != 200 {
			t.Errorf("GET %s with a stray body: %d %s", p, r.status, r.body)
		}
	}
	h.do(http.MethodPut, tb.path(""), big).problem(t, 405, "METHOD_NOT_ALLOWED")
	h.do(http.MethodPost, tb.path("/moves"), big, auth(tb.tokens[0])...).problem(t, 413, "PAYLOAD_TOO_LARGE")
}

// TestMetricsLabelsAreBounded: whatever methods and paths clients invent, the metrics get no
// series of their own for them: methods outside the standard ones share OTHER, unknown paths
// share unmatched, and no label holds a match id.
func TestMetricsLabelsAreBounded(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	for i := range 20 {
		for _, m := range []string{fmt.Sprintf("X%d", i), "get", "BREW"} {
			h.do(m, tb.path(""), nil).problem(t, 405, "METHOD_NOT_ALLOWED")
		}
		h.do(http.MethodGet, fmt.Sprintf("/made/up/%d", i), nil).problem(t, 404, "NOT_FOUND")
	}
	body := string(h.do(http.MethodGet, "/metrics", nil).body)
	want := `allfives_http_requests_total{method="OTHER",route="/api/v1/matches/:id",status="405"} 60`
	if !strings.Contains(body, want) || !strings.Contains(body, `route="unmatched",status="404"} 20`) {
		t.Fatalf("metrics lack %s or the unmatched 404s", want)
	}
	for _, bad := range []string{`method="X1"`, `method="get"`, `method="BREW"`, "/made/up", tb.id} {
		if strings.Contains(body, bad) {
			t.Errorf("a label holds %s", bad)
		}
	}
}

// TestTokenDependentAnswersSaySo: every read whose answer depends on the caller's token says
// so (Vary: Authorization) and is private to the caller, so no cache hands one seat's copy,
// with its tiles, to another seat or a spectator.
func TestTokenDependentAnswersSaySo(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	for _, p := range []string{"", "/events", "/legal-moves", "/replay?step=2", "/audit", "/export", "/export?format=text"} {
		r := h.do(http.MethodGet, tb.path(p), nil, auth(tb.tokens[0])...)
		cc := r.header.Get("Cache-Control")
		if r.status != 200 || !strings.Contains(r.header.Get("Vary"), "Authorization") || !strings.Contains(cc, "private") || !strings.Contains(cc, "no-cache") {
			t.Errorf("GET %s: %d, Vary %q, Cache-Control %q", p, r.status, r.header.Get("Vary"), cc)
		}
	}
}

// TestRoutingProblemsSayWhatToDo: an unknown path or method gets a detail that points the
// client somewhere, not Echo's bare "Not Found".
func TestRoutingProblemsSayWhatToDo(t *testing.T) {
	h := newHarness(t)
	if p := h.do(http.MethodGet, "/api/v2/matches", nil).problem(t, 404, "NOT_FOUND"); !strings.Contains(p.Detail, "/openapi.yaml") {
		t.Errorf("404 detail %q", p.Detail)
	}
	r := h.do(http.MethodHead, "/healthz", nil)
	if p := r.problem(t, 405, "METHOD_NOT_ALLOWED"); !strings.Contains(p.Detail, "Allow") || !strings.Contains(r.header.Get("Allow"), "GET") {
		t.Errorf("405 detail %q, Allow %q", p.Detail, r.header.Get("Allow"))
	}
}

// TestRateLimitBucketsIPv6ByPrefix: an IPv6 host usually holds a whole /64 and can send each
// request from a new address in it; the limit is per /64, so that buys it nothing. An
// IPv4-mapped address is the IPv4 address.
func TestRateLimitBucketsIPv6ByPrefix(t *testing.T) {
	h := newHarness(t, apitest.RateLimit(0.001)) // one request per 1000 s: the second is refused
	from := func(addr string) *reply {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/matches", nil)
		req.RemoteAddr = addr
		return h.serve(req)
	}
	if r := from("[2001:db8:1:2::1]:1000"); r.status != 200 {
		t.Fatalf("first request: %d", r.status)
	}
	from("[2001:db8:1:2:ffff::7]:2000").problem(t, 429, "RATE_LIMITED")
	if r := from("[2001:db8:1:3::1]:1000"); r.status != 200 {
		t.Fatalf("another /64: %d", r.status)
	}
	if r := from("198.51.100.7:1"); r.status != 200 {
		t.Fatalf("an IPv4 client: %d", r.status)
	}
	from("[::ffff:198.51.100.7]:2").problem(t, 429, "RATE_LIMITED")
	if r := from("198.51.100.8:1"); r.status != 200 {
		t.Fatalf("the next IPv4 address: %d", r.status)
	}
}

// TestOneAuthorization: two Authorization headers are refused, on reads and moves alike, even
// when one of them is a good token: which one counts must not be a guess.
func TestOneAuthorization(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	for _, second := range []string{"Bearer " + tb.tokens[1], "Bearer " + tb.tokens[0], "Basic eDp5"} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			p := tb.path("")
			var body io.Reader
			if method == http.MethodPost {
				p, body = tb.path("/moves"), strings.NewReader(`{"action":"play","tile":"5-5"}`)
			}
			req := httptest.NewRequest(method, p, body)
			req.Header.Add("Authorization", "Bearer "+tb.tokens[0])
			req.Header.Add("Authorization", second)
			h.serve(req).problem(t, 401, "UNAUTHORIZED")
		}
	}
	if v := tb.view(-1); v.Version != 2 {
		t.Fatalf("a move with two Authorization headers was made: version %d", v.Version)
	}
}

// TestHistoryPlayerCountsCharacters: the player filter takes a name of up to 64 characters,
// as the contract says, however many bytes they take.
func TestHistoryPlayerCountsCharacters(t *testing.T) {
	h := newHarness(t)
	if r := h.do(http.MethodGet, "/api/v1/matches?player="+strings.Repeat("%C3%A9", 64), nil); r.status != 200 {
		t.Fatalf("64 characters: %d %s", r.status, r.body)
	}
	h.do(http.MethodGet, "/api/v1/matches?player="+strings.Repeat("%C3%A9", 65), nil).problem(t, 400, "INVALID_REQUEST")
}

// TestClientHangingUpIsNoServerError: a request abandoned by its client is logged and counted
// as 499, not as the 500 that would page someone.
func TestClientHangingUpIsNoServerError(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodGet, "/api/v1/matches/0123456789abcdef0123456789abcdef", nil).WithContext(ctx)
	h.e.ServeHTTP(httptest.NewRecorder(), req) // nobody reads the answer
	body := string(h.do(http.MethodGet, "/metrics", nil).body)
	if !strings.Contains(body, `route="/api/v1/matches/:id",status="499"} 1`) || strings.Contains(body, `status="500"`) {
		t.Fatalf("an abandoned request was counted as a server error:\n%s", grepLines(body, "allfives_http_requests_total"))
	}
}

func grepLines(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
