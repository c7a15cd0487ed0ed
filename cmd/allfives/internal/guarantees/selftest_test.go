package guarantees

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// TestTheChecksCatchWhatTheyGuard feeds the assertions answers that break each invariant,
// and honest ones, about a live match of the real server: each broken one must be found,
// no honest one. A check that found nothing here would hold nothing in the suite.
func TestTheChecksCatchWhatTheyGuard(t *testing.T) {
	s := newSuite(t, "sqlite", engines[0].db(t))
	out := s.create(api.CreateMatchRequest{Seed: seedB, Players: []api.PlayerRequest{human("Ann"), human("Ben")}}, cred{})
	k := s.add(newKind("anonymous", out.Match.ID))
	seatsOf(k, out, nil)
	s.steps(k, 2)
	m := s.truth.of(k.match)
	hidden := unplayed(m, 1)
	seat0 := cred{role: roleOwnToken, secret: k.seats[0].token}
	view := matchPath(k.match, "")
	problem := func(code string, status int) answer {
		return answer{status: status, header: http.Header{"Content-Type": {"application/problem+json"}},
			body: fmt.Appendf(nil, `{"type":"urn:allfives:problem:%s","status":%d,"code":%q,"detail":"match %s: no"}`, code, status, code, k.match)}
	}
	jsonAnswer := func(body string) answer {
		return answer{status: http.StatusOK, header: http.Header{"Content-Type": {"application/json"}}, body: []byte(body)}
	}
	cases := []struct {
		name  string
		r     request
		a     answer
		found bool
		seal  bool // the match is taken as sealed for the case
	}{
		{"an honest view", request{method: "GET", path: view}, s.send(request{method: "GET", path: view}), false, false},
		{"an honest error", request{method: "GET", path: view}, problem("NOT_YOUR_TURN", 409), false, false},
		{"seat 1's tile to a spectator", request{method: "GET", path: view}, jsonAnswer(`{"detail":"` + hidden + `"}`), true, false},
		{"seat 1's tile in a header", request{method: "GET", path: view},
			answer{status: 200, header: http.Header{"X-Hint": {hidden}}, body: []byte("{}")}, true, false},
		{"seat 1's hand to seat 0", request{method: "GET", path: matchPath(k.match, "/events"), cred: seat0},
			jsonAnswer(`{"events":[{"seq":2,"type":"hand.started","data":{"hands":[null,[]]}}]}`), true, false},
		{"seat 1's draw to seat 0", request{method: "GET", path: matchPath(k.match, "/events"), cred: seat0},
			jsonAnswer(`{"events":[{"seq":3,"type":"tile.drawn","data":{"seat":1,"tile":"x"}}]}`), true, false},
		{"seat 1's view to seat 0", request{method: "GET", path: view, cred: seat0},
			jsonAnswer(`{"id":"` + k.match + `","status":"in_progress","seats":[],"you":{"seat":1,"tiles":[]}}`), true, false},
		{"a live match's chain", request{method: "GET", path: matchPath(k.match, "/export")}, jsonAnswer(`{"events":[{"hash":"ab"}]}`), true, false},
		{"a live match's seed", request{method: "GET", path: "/api/v1/tournaments"}, jsonAnswer(`{"seed":"` + m.seed + `"}`), true, false},
		{"a 500", request{method: "GET", path: view}, problem("INTERNAL", 500), true, false},
		{"a 503 without Retry-After", request{method: "GET", path: view}, problem("STORE_BUSY", 503), true, false},
		{"a sealed match's view to a spectator", request{method: "GET", path: view}, s.send(request{method: "GET", path: view}), true, true},
		{"the sealed answer", request{method: "GET", path: view}, problem("MATCH_SEALED", 409), false, true},
		{"another sealed answer", request{method: "GET", path: view + "/events"}, problem("MATCH_SEALED", 409), false, true},
		{"a sealed answer that differs", request{method: "GET", path: view + "/audit"},
			answer{status: 409, header: http.Header{"Content-Type": {"application/problem+json"}, "Etag": {`"1-s"`}}, body: problem("MATCH_SEALED", 409).body}, true, true},
		{"a sealed match in a list", request{method: "GET", path: "/api/v1/matches"}, jsonAnswer(`{"matches":[{"id":"` + k.match + `"}]}`), true, true},
	}
	for _, c := range cases {
		s.truth.forget()
		m := s.truth.of(k.match)
		m.sealed = c.seal
		s.truth.sealed[k.match] = c.seal
		before := s.counts.findings()
		s.check(c.r, c.a)
		if got := s.counts.findings() > before; got != c.found {
			t.Errorf("%s: found %v, want %v", c.name, got, c.found)
		}
	}
	s.counts.clear() // what was found here was planted
}

// unplayed is a tile seat holds in m's hand that no one has played: hidden from the others.
func unplayed(m *matchTruth, seat int) string {
	played := map[domain.Tile]bool{}
	var hand []domain.Tile
	for _, e := range m.events {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			hand = d.Hands[seat]
		case domain.TilePlayed:
			played[d.Tile] = true
		}
	}
	for _, t := range hand {
		if !played[t] {
			return t.String()
		}
	}
	return ""
}
