package guarantees

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// sealedAnswer is the first 409 MATCH_SEALED an outsider got: every other must be the same
// (its problem but for the path and request id it names, and the same headers), or the
// difference tells something of the match.
type sealedAnswer struct {
	problem string   // the problem+json without instance and request_id, re-encoded
	headers []string // the header names, but those that vary by request
	first   string   // the request that gave it
}

// varying are the headers that differ from one request to the next whatever it is about.
var varying = map[string]bool{"Date": true, "X-Request-Id": true, "Content-Length": true}

// normalSealed is an answer reduced to what must not differ between sealed answers: the
// match's own id, which the request names, is written {id}.
func normalSealed(a answer, id string) (string, []string) {
	var p map[string]any
	if json.Unmarshal(a.body, &p) == nil {
		delete(p, "instance")
		delete(p, "request_id")
	}
	b, _ := json.Marshal(p)
	b = bytes.ReplaceAll(b, []byte(id), []byte("{id}"))
	var names []string
	for k := range a.header {
		if !varying[k] {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return string(b), names
}

// checkI2 holds I2 (sealed rounds): while a duplicate round runs, every request about one of
// its matches by anyone but the match's own seat holders answers the same 409 MATCH_SEALED;
// a holder's rematch and review are 409; and no other answer names a sealed match, but the
// tournament's own (whose pairings list its tables) and a holder's own lists.
func (s *suite) checkI2(v seen) {
	s.t.Helper()
	if v.isMatchRoute() && v.match.sealed {
		if len(v.holds) == 0 {
			s.sealedOutsider(v)
		} else {
			s.sealedHolder(v)
		}
	}
	s.sealedUnnamed(v)
}

// sealedOutsider requires the one sealed answer.
func (s *suite) sealedOutsider(v seen) {
	s.t.Helper()
	s.counts.sealedAsked++
	if v.a.status != http.StatusConflict {
		s.violation("I2", v, "an outsider's request about a sealed match answered %d, not 409 MATCH_SEALED", v.a.status)
		return
	}
	if v.r.method == http.MethodHead {
		if len(v.a.body) > 0 {
			s.violation("I2", v, "a HEAD answered a body")
		}
		return
	}
	if code := v.a.code(); code != "MATCH_SEALED" {
		s.violation("I2", v, "an outsider's request about a sealed match answered code %q, not MATCH_SEALED", code)
		return
	}
	problem, headers := normalSealed(v.a, v.match.id)
	if s.sealed == nil {
		s.sealed = &sealedAnswer{problem: problem, headers: headers, first: v.r.method + " " + v.r.path}
		return
	}
	if problem != s.sealed.problem || !slices.Equal(headers, s.sealed.headers) {
		s.violation("I2", v, "this MATCH_SEALED differs from the one %s got (%s, headers %v): %s, headers %v",
			s.sealed.first, s.sealed.problem, s.sealed.headers, problem, headers)
	}
}

// sealedHolder: a holder reads its sealed match as its seat (I1 judges what it sees); it
// may neither review it nor offer a rematch until the round ends.
func (s *suite) sealedHolder(v seen) {
	s.t.Helper()
	switch v.route {
	case "POST /api/v1/matches/:id/rematch", "POST /api/v1/matches/:id/review":
		if v.a.status != http.StatusConflict {
			s.violation("I2", v, "a holder's %s of its sealed match answered %d, not 409", v.route, v.a.status)
		}
		if v.route == "POST /api/v1/matches/:id/rematch" && v.a.code() != "MATCH_SEALED" {
			s.violation("I2", v, "a holder's rematch of its sealed match answered code %q, not MATCH_SEALED", v.a.code())
		}
	}
}

// sealedUnnamed: outside the match's own routes, a sealed match's id appears only in its
// tournament's answers, and in the lists and stream of a player holding one of its seats.
func (s *suite) sealedUnnamed(v seen) {
	s.t.Helper()
	path := v.route[strings.Index(v.route, " ")+1:]
	if strings.HasPrefix(path, "/api/v1/tournaments") || !strings.HasPrefix(path, "/api/") {
		return
	}
	text := []byte(v.a.text())
	for _, id := range slices.Sorted(maps.Keys(s.truth.sealedIDs())) {
		if v.match != nil && v.match.id == id || !bytes.Contains(text, []byte(id)) {
			continue
		}
		own := len(s.truth.holds(s.truth.of(id), v.r.cred)) > 0
		switch {
		case own && path == "/api/v1/players/me/stream":
		case own && path == "/api/v1/players/:id/matches" && v.params["id"] == s.truth.player(v.r.cred.secret):
		default:
			s.violation("I2", v, "the answer names sealed match %s", id)
		}
	}
}
