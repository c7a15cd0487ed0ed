package guarantees

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// do sends r, then holds its answer to I1, I2, I4 and I5 (I3 runs on the exports once their
// matches have ended). Every request of the suite, fixtures' included, goes through it.
func (s *suite) do(r request) answer {
	s.t.Helper()
	a := s.send(r)
	if r.method != http.MethodGet && r.method != http.MethodHead && (a.status < 300 || a.status >= 500) {
		s.truth.forget() // an act done (or failed half way) may have moved any match or tournament
	}
	s.check(r, a)
	return a
}

// must is do, requiring the status want and decoding the answer into out when not nil.
func (s *suite) must(want int, r request, out any) answer {
	s.t.Helper()
	a := s.do(r)
	if a.status != want {
		s.t.Fatalf("%s %s as %s: %d %s, want %d", r.method, r.path, r.cred.role, a.status, a.body, want)
	}
	if out != nil {
		if err := json.Unmarshal(a.body, out); err != nil {
			s.t.Fatalf("%s %s: %v in %s", r.method, r.path, err, a.body)
		}
	}
	return a
}

// seen is one answer as the assertions judge it: the request, the route it reached, and the
// match it is about with its truth and the seats the credential holds there.
type seen struct {
	r      request
	a      answer
	route  string // "GET /api/v1/matches/:id"
	params map[string]string
	match  *matchTruth // the match a route under /matches/:id is about, else nil
	holds  []int
}

// violation records one broken guarantee with all a coordinator needs to hand it on: the
// invariant, the route, the kind, the credential, what was asked and what was answered.
// Findings are reported once per invariant, route, kind and finding, naming every
// credential that met it, when the suite ends (report).
func (s *suite) violation(inv string, v seen, format string, args ...any) {
	s.t.Helper()
	kind := "-"
	if v.r.kind != nil {
		kind = v.r.kind.name
	}
	role := v.r.cred.role
	if role == "" {
		role = roleNone
	}
	body := string(v.a.body)
	if len(body) > 400 {
		body = body[:400] + "..."
	}
	s.counts.violation(finding{inv: inv, route: v.r.method + " " + strings.SplitN(v.route, " ", 2)[1], kind: kind, what: format},
		role, fmt.Sprintf("%s: %s %s as %s -> %d %s", fmt.Sprintf(format, args...), v.r.method, v.r.path, role, v.a.status, body))
}

// check holds one answer to every invariant that applies to it.
func (s *suite) check(r request, a answer) {
	s.t.Helper()
	v := seen{r: r, a: a}
	v.route, v.params = routeOf(s.srv.Echo, r.method, r.path)
	if id, ok := v.params["id"]; ok && strings.HasPrefix(v.route[strings.Index(v.route, " ")+1:], "/api/v1/matches/:id") {
		v.match = s.truth.of(id)
		v.holds = s.truth.holds(v.match, r.cred)
	}
	s.counts.request(v)
	s.checkI5(v)
	s.checkI2(v)
	s.checkI1(v)
	s.checkI4(v)
}

// isMatchRoute says the answer is about one match, by its route.
func (v seen) isMatchRoute() bool { return v.match != nil }

// decoded is the answer's JSON body, nil when it is not JSON.
func (v seen) decoded() any {
	var out any
	if len(v.a.body) == 0 || json.Unmarshal(v.a.body, &out) != nil {
		return nil
	}
	return out
}
