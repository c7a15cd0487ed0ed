package guarantees

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/allfives/allfives/api"
)

// duplicate: a rated duplicate round of two tables; table 1 ends (a resignation) while
// table 2 plays on. Ending a table must show nothing outside the match itself (I2): the
// tournament's view, list, export and audit, and its players' profiles, ratings, lists
// and the leaderboard answer byte for byte as before, once the tournament's driver and the
// ratings' projection have run past the end.
func (s *suite) duplicate() {
	s.t.Helper()
	pp := s.people
	org := pp.get("Xia")
	entrants := []*person{pp.get("Yan"), pp.get("Zoe"), pp.get("Abe"), pp.get("Bix")}
	v := s.tournamentOf(org, api.CreateTournamentRequest{Name: "Duplicate Cup", Format: "2p", System: "swiss", Rounds: 1, Duplicate: true, Rated: true},
		entrants)
	ended := s.tableKind("duplicate ended", v, 1, 0, org)
	live := s.tableKind("duplicate live", v, 1, 1, org)
	s.steps(ended, 4)
	s.steps(live, 4)

	before := s.quiet(v.ID, entrants)
	s.resign(ended, ended.own)
	if err := s.srv.Tournaments.Advance(context.Background(), v.ID); err != nil {
		s.t.Fatalf("advance the tournament: %v", err)
	}
	s.projectorPassed()
	s.ownListsShow(ended)
	s.ownListsShow(live)
	after := s.quiet(v.ID, entrants)
	for path, b := range before {
		if string(after[path]) != string(b) {
			route, _ := routeOf(s.srv.Echo, http.MethodGet, path)
			s.violation("I2", seen{r: request{method: http.MethodGet, path: path, kind: ended, cred: cred{role: roleNone}}, a: answer{status: http.StatusOK, body: after[path]}, route: route},
				"a table of a running duplicate round ended and this answer changed; before: %.300s", b)
		}
	}
}

// ownListsShow: each holder of k's sealed match finds it in its own list of matches with
// its key, and, when it is to move, in ?turn=me and in its stream's snapshot (docs/design.md, I2).
func (s *suite) ownListsShow(k *kind) {
	s.t.Helper()
	m := s.truth.of(k.match)
	turn := -1
	if m.status == "in_progress" {
		var v api.MatchView
		c, _ := holderCred(k, k.own)
		s.must(http.StatusOK, request{method: http.MethodGet, path: matchPath(k.match, ""), cred: c, kind: k}, &v)
		if v.Turn != nil {
			turn = *v.Turn
		}
	}
	for seat, h := range k.seats {
		c := h.who.asKey(roleOwnKey)
		paths := []string{"/api/v1/players/" + h.who.id + "/matches"}
		if seat == turn {
			paths = append(paths, "/api/v1/players/"+h.who.id+"/matches?turn=me", "/api/v1/players/me/stream")
		}
		for _, p := range paths {
			a := s.do(request{method: http.MethodGet, path: p, cred: c, kind: k})
			if a.status != http.StatusOK || !bytes.Contains(a.body, []byte(k.match)) {
				s.violation("I2", seen{r: request{method: http.MethodGet, path: p, cred: c, kind: k}, a: a, route: firstRoute(s, p)},
					"seat %d's own key does not find its sealed match %s here", seat, k.match)
			}
		}
	}
}

// firstRoute is the route path is served by.
func firstRoute(s *suite, path string) string {
	route, _ := routeOf(s.srv.Echo, http.MethodGet, path)
	return route
}

// quiet are the answers about a duplicate round's tournament and players that must not move
// while the round runs, by path.
func (s *suite) quiet(tournament string, players []*person) map[string][]byte {
	s.t.Helper()
	paths := []string{"/api/v1/tournaments/" + tournament, "/api/v1/tournaments/" + tournament + "/export",
		"/api/v1/tournaments/" + tournament + "/audit", "/api/v1/tournaments", "/api/v1/leaderboard/2p"}
	for _, p := range players {
		paths = append(paths, "/api/v1/players/"+p.id, "/api/v1/players/"+p.id+"/ratings", "/api/v1/players/"+p.id+"/matches")
	}
	out := map[string][]byte{}
	for _, p := range paths {
		out[p] = s.must(http.StatusOK, request{method: http.MethodGet, path: p}, nil).body
	}
	// Of the list, only this tournament's entry: the others move on their own.
	var list struct {
		Tournaments []json.RawMessage `json:"tournaments"`
	}
	if json.Unmarshal(out["/api/v1/tournaments"], &list) != nil {
		s.t.Fatalf("GET /api/v1/tournaments: %s", out["/api/v1/tournaments"])
	}
	out["/api/v1/tournaments"] = nil
	for _, e := range list.Tournaments {
		if bytes.Contains(e, []byte(`"id":"`+tournament+`"`)) {
			out["/api/v1/tournaments"] = e
		}
	}
	return out
}

// projectorPassed waits until the ratings' projection has rated a match that ended after
// everything before this call: two fresh players play a rated match a second later, one
// resigns, and its result shows in the winner's history.
func (s *suite) projectorPassed() {
	s.t.Helper()
	a, b := s.people.fresh("Sentinel"), s.people.fresh("Sentinel")
	s.clock.Advance(time.Second)
	out := s.create(api.CreateMatchRequest{Rated: true, Players: []api.PlayerRequest{me, challenge(b)}}, a.asKey(roleOwnKey))
	k := newKind("sentinel", out.Match.ID)
	seatsOf(k, out, map[int]*person{0: a})
	s.join(k, 1, api.JoinRequest{}, b)
	s.resign(k, 1)
	s.waitFor("the projection rates the sentinel", func() bool {
		var r api.PlayerRatingsResponse
		s.must(http.StatusOK, request{method: http.MethodGet, path: "/api/v1/players/" + a.id + "/ratings"}, &r)
		for _, h := range r.History {
			if h.MatchID == k.match {
				return true
			}
		}
		return false
	})
}
