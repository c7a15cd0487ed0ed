package api_test

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// hostile is one request a careless or hostile client might send, and the answer it must get.
type hostile struct {
	name, method, path, body string
	hdr                      []string
	status                   int
	code                     string // "" for a success
}

// TestHostileRequests sends malformed bodies, wrong types, odd names, bad query values, weird
// match ids, mangled headers and stray methods to every route. Each gets the problem+json
// answer it should (or the documented success), valid against the contract, and none changes
// the match.
func TestHostileRequests(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	seat0, seat1 := auth(tb.tokens[0]), auth(tb.tokens[1])
	mv := tb.path("/moves")
	nested := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	var cases []hostile
	add := func(c ...hostile) { cases = append(cases, c...) }
	for _, body := range []string{
		`{"action":"play","tile":46}`, `{"action":"play","tile":["4-6"]}`, `{"action":"play","tile":"5-5","end":1}`,
		`{"action":null}`, `{"action":"play","tile":null}`, `{"action":["play"]}`, `{"action":"play","tile":{"a":4,"b":6}}`,
		`{"action":"PLAY","tile":"5-5"}`, `{"action":"play","tile":"５-５"}`,
		`{"action":"play","tile":"4-6","end":"LEFT"}`, `{"action":"play","tile":"-1-6"}`, `{"action":"play","tile":"\u0000"}`,
		`{"action":"draw","end":"left"}`, `{"action":"pass","tile":null,"end":null,"x":1}`, `{"action":"play","tile":"5-5"}}`,
		`{"action":` + nested + `}`, nested, `null`, `"play"`, `42`, `{}`, "\ufeff{\"action\":\"draw\"}", `{"action":"play","tile":"5-5",}`,
		`{"action":"play","action":"draw"}`, `{"Action":"draw"}`,
	} {
		add(hostile{"move " + clipName(body), "POST", mv, body, seat0, 400, "INVALID_REQUEST"})
	}
	add(
		hostile{"other seat's tile", "POST", mv, `{"action":"play","tile":"6-5"}`, seat0, 422, "TILE_NOT_IN_HAND"},
		hostile{"out of turn", "POST", mv, `{"action":"draw"}`, seat1, 409, "NOT_YOUR_TURN"},
		hostile{"move as text", "POST", mv, `{"action":"draw"}`, append([]string{"Content-Type", "text/plain"}, seat0...), 415, "UNSUPPORTED_MEDIA_TYPE"},
		hostile{"move with a bad media type", "POST", mv, `{"action":"draw"}`, append([]string{"Content-Type", ";;;"}, seat0...), 415, "UNSUPPORTED_MEDIA_TYPE"},
	)
	for _, body := range []string{
		`{"players":[{"name":"A\nseed: 00","kind":"human"},{"name":"B","kind":"human"}]}`,
		`{"players":[{"name":"A\u0000","kind":"human"},{"name":"B","kind":"human"}]}`,
		`{"players":[{"name":"\u202eevil","kind":"human"},{"name":"B","kind":"human"}]}`,
		`{"players":[{"name":"A\u007f","kind":"human"},{"name":"B\u2028C","kind":"human"}]}`,
		`{"players":[{"name":"` + strings.Repeat("n", 65) + `","kind":"human"},{"name":"B","kind":"human"}]}`,
		`{"Players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}]}`,
		`{"players":[{"name":"A","kind":"human","Kind":"bot"},{"name":"B","kind":"human"}]}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}],"target":50,"target":100}`,
		`{"players":[null,null]}`, `{"players":null}`, `{"players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}],"target":1e400}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}],"target":99999999999999999999}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}],"target":-5}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}],"target":2.5}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}],"seed":"` + strings.Repeat("g", 64) + `"}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"B","kind":"human"}],"partnerships":"yes"}`,
		`{"players":[` + strings.Repeat(`{"name":"A","kind":"human"},`, 100) + `{"name":"B","kind":"human"}]}`,
	} {
		add(hostile{"create " + clipName(body), "POST", "/api/v1/matches", body, nil, 400, "INVALID_REQUEST"})
	}
	add(hostile{"unicode names", "POST", "/api/v1/matches", `{"players":[{"name":"Zoë 🂡","kind":"human"},{"name":"李","kind":"human"}]}`, nil, 201, ""})

	for _, q := range []string{"/events?limit=-1", "/events?after=99999999999999999999", "/events?after=1e3", "/events?after=1&after=2",
		"/events?after=%zz", "/events?limit=%00", "/replay?step=1e3", "/replay?step=", "/replay?step=0", "/replay?step=-1",
		"/replay?step=99999999999999999999", "/replay?step=1&step=2", "/replay?step=0x1", "/replay", "/export?format=xml",
		"/export?format=json&format=text", "/audit?deep=1", "/legal-moves?seat=1", "/stream?after=-1", "/stream?token=a&token=b"} {
		add(hostile{"query " + q, "GET", tb.path(q), "", seat0, 400, "INVALID_REQUEST"})
	}
	for _, q := range []string{"?limit=-1", "?limit=1e3", "?limit=0", "?status=", "?player=", "?cursor=", "?cursor=%00", "?since=0",
		"?until=2025-13-01T00:00:00Z", "?limit=1&limit=2", "?player=" + strings.Repeat("p", 65)} {
		add(hostile{"history " + q, "GET", "/api/v1/matches" + q, "", nil, 400, "INVALID_REQUEST"})
	}

	for _, id := range []string{strings.Repeat("a", 5000), "%E2%98%83", "..%2F..%2Fetc%2Fpasswd", "%2e%2e", "'%20OR%201=1--",
		"%00", "0123456789ABCDEF0123456789ABCDEF", "x;DROP%20TABLE%20events"} {
		for _, suffix := range []string{"", "/events", "/legal-moves", "/replay?step=1", "/audit", "/export", "/stream"} {
			add(hostile{"id " + clipName(id) + suffix, "GET", "/api/v1/matches/" + id + suffix, "", seat0, 404, "MATCH_NOT_FOUND"})
		}
		add(hostile{"move on id " + clipName(id), "POST", "/api/v1/matches/" + id + "/moves", `{"action":"draw"}`, seat0, 404, "MATCH_NOT_FOUND"})
	}

	for _, a := range []string{"Bearer", "Bearer ", "Bearer \t", "Basic " + tb.tokens[0], "Token " + tb.tokens[0], tb.tokens[0],
		"Bearer " + tb.tokens[0] + " x", "Bearer " + strings.Repeat("t", 10000), "Bearer " + tb.tokens[0][:len(tb.tokens[0])-1]} {
		add(hostile{"Authorization " + clipName(a), "GET", tb.path(""), "", []string{"Authorization", a}, 401, "UNAUTHORIZED"},
			hostile{"move with Authorization " + clipName(a), "POST", mv, `{"action":"draw"}`, []string{"Authorization", a}, 401, "UNAUTHORIZED"})
	}
	for _, a := range []string{"bearer " + tb.tokens[0], "BEARER " + tb.tokens[0], "Bearer  " + tb.tokens[0]} {
		add(hostile{"Authorization " + clipName(a), "GET", tb.path(""), "", []string{"Authorization", a}, 200, ""})
	}

	for _, m := range []string{`"2-0", "3-0"`, `"2-0`, `2-0"`, `"2-x"`, `"2-0-0"`, `"-2"`, `2 2`, `""`, `"99999999999999999999"`, `W/"2-0"`} {
		add(hostile{"If-Match " + m, "POST", mv, `{"action":"play","tile":"5-5"}`, append([]string{"If-Match", m}, seat0...), 400, "INVALID_REQUEST"})
	}
	for _, m := range []string{"garbage", `"1-0", junk`, `W/`, `,,,`, strings.Repeat(`"x",`, 1000)} {
		add(hostile{"If-None-Match " + clipName(m), "GET", tb.path(""), "", append([]string{"If-None-Match", m}, seat0...), 200, ""})
	}
	for _, k := range []string{"", " ", strings.Repeat("k", 10<<10), "ключ", "a\tb", "key\x7f"} {
		add(hostile{"Idempotency-Key " + clipName(k), "POST", mv, `{"action":"play","tile":"5-5"}`, append([]string{"Idempotency-Key", k}, seat0...), 400, "INVALID_REQUEST"})
	}

	for _, p := range []string{"/api/v1/matches/", tb.path("/"), tb.path("/moves/"), tb.path("/events/"), "/api/v1/", "/api/v1/matches/" + tb.id + "/../" + tb.id,
		"/swagger/nope", "/swagger/../../go.mod", "/swagger/x/../../openapi.yaml", "/healthz/"} {
		add(hostile{"path " + p, "GET", p, "", nil, 404, "NOT_FOUND"})
	}
	for _, m := range []string{"PUT", "DELETE", "PATCH", "HEAD", "TRACE", "FOO", "get"} {
		for _, p := range []string{"/api/v1/matches", tb.path(""), mv, tb.path("/events"), "/healthz", "/metrics"} {
			add(hostile{m + " " + p, m, p, "", nil, 405, "METHOD_NOT_ALLOWED"})
		}
	}
	add(hostile{"GET with a body", "GET", tb.path(""), `{"action":"draw"}`, nil, 200, ""},
		hostile{"GET with a huge body", "GET", tb.path(""), strings.Repeat("x", 70<<10), nil, 200, ""})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Parsed as a server parses a request line: the path is not cleaned.
			req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			for i := 0; i+1 < len(c.hdr); i += 2 {
				req.Header.Set(c.hdr[i], c.hdr[i+1])
			}
			sub := *h // contract breaks are reported by the subtest
			sub.t = t
			r := sub.serve(req)
			if c.code == "" {
				if r.status != c.status {
					t.Fatalf("%d, want %d: %s", r.status, c.status, r.body)
				}
				return
			}
			if p := r.problem(t, c.status, c.code); p.Detail == "" {
				t.Fatalf("a problem without detail: %s", r.body)
			}
		})
	}
	if v := tb.view(-1); v.Version != 2 {
		t.Fatalf("hostile requests changed the match: version %d", v.Version)
	}
}

func clipName(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}
