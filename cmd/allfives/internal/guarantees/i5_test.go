package guarantees

import (
	"net/http"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
)

// checkI5 holds I5 (no 5xx from a client): an answer of 500 or more is a documented 503
// (a code the error table gives 503) carrying Retry-After, and nothing else.
func (s *suite) checkI5(v seen) {
	s.t.Helper()
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
