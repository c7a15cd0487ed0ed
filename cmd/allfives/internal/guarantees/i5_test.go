package guarantees

import (
	"net/http"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
)

// checkI5 holds I5 (no 5xx from a client): an answer of 500 or more is a documented 503
// (a code the error table gives 503) carrying Retry-After, and nothing else; and a review of
// a match that has not finished is refused before any work is queued: never accepted, and
// 409 to anyone the route would otherwise serve.
func (s *suite) checkI5(v seen) {
	s.t.Helper()
	if v.route == "POST /api/v1/matches/:id/review" && v.match != nil && v.match.status != "finished" {
		switch {
		case v.a.status < 300:
			s.violation("I5", v, "a review of a match that is %s was accepted (%d)", v.match.status, v.a.status)
		case (v.r.cred.secret == "" || len(v.holds) > 0) && v.a.status != http.StatusConflict:
			s.violation("I5", v, "a review of a match that is %s answered %d, not 409", v.match.status, v.a.status)
		}
	}
	if v.a.status < 500 {
		return
	}
	if v.a.status != http.StatusServiceUnavailable {
		s.violation("I5", v, "a %d answered a client", v.a.status)
		return
	}
	code := v.a.code()
	status, _, ok := problem.KindOf(domain.Code(code))
	if !ok || status != http.StatusServiceUnavailable {
		s.violation("I5", v, "a 503 whose code %q is no documented 503", code)
	}
	if v.a.header.Get("Retry-After") == "" {
		s.violation("I5", v, "a 503 without Retry-After")
	}
}
