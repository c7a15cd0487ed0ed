package guarantees

import (
	"encoding/json"
	"net/http"
	"slices"
)

// phase is which cases a pass of the cross runs.
type phase int

const (
	reading    phase = iota // every read, every query shape
	acting                  // acts that leave the fixtures what they are
	destroying              // acts that end, empty or cancel what they touch: last
	ended                   // once every match has ended: the API's reads again
)

// endedRoles are the credentials the last pass reads with: a spectator, an outsider, a
// player of another table, and a seat's own token and key.
var endedRoles = []string{roleNone, roleStranger, roleOtherTable, roleOwnToken, roleOwnKey}

// in says whether route's cases belong to the phase.
func (p phase) in(route string) bool {
	class, cs := catalogue[route], routeCases[route]
	switch p {
	case reading:
		return !class.acts
	case ended:
		return !class.acts && class.access != static
	case acting:
		return class.acts && !cs.destructive
	}
	return cs.destructive
}

// applies says whether cases of scope are asked about k.
func applies(sc scope, k *kind) bool {
	switch sc {
	case onMatch:
		return k.match != ""
	case onTournament:
		return k.tournament != ""
	case onSeek:
		return len(k.seeks) > 0
	case onPlayer:
		return ownPlayer(k) != nil
	}
	return false
}

// globalCreds are the credentials the routes about no kind are asked with.
func (s *suite) globalCreds() []cred {
	return []cred{{role: roleNone}, garbageCred, s.rotated, s.stranger.asKey(roleStranger), s.people.get("Ada").asKey(roleOwnKey)}
}

// cross asks every route of the phase, about every kind it applies to, with every
// credential the kind has; the routes about no kind with the global credentials. Destructive
// acts go kind by kind, the tournament's cancel after every match's, a key's rotation last.
func (s *suite) cross(routes []string, p phase) {
	s.t.Helper()
	var mine []string
	for _, r := range routes {
		if p.in(r) {
			mine = append(mine, r)
		}
	}
	if p == destroying {
		slices.SortStableFunc(mine, func(a, b string) int { return slices.Index(destroyOrder, a) - slices.Index(destroyOrder, b) })
		if len(mine) != len(destroyOrder) {
			s.t.Fatalf("the destructive routes %v are not all in destroyOrder %v", mine, destroyOrder)
		}
	}
	for _, route := range mine {
		cs := routeCases[route]
		if cs.scope == onNothing {
			for _, c := range s.globalCreds() {
				if p != ended || slices.Contains(endedRoles, c.role) {
					s.ask(route, nil, c)
				}
			}
			continue
		}
		for _, k := range s.kinds {
			if !applies(cs.scope, k) {
				continue
			}
			for _, c := range s.creds(k) {
				if p != ended || slices.Contains(endedRoles, c.role) {
					s.ask(route, k, c)
				}
			}
			if catalogue[route].access == static {
				break // a page is the same page whatever it is about: asked about one kind
			}
		}
	}
}

// destroyOrder is the order of the destructive routes: offers made and taken before
// seats are left, declined and cancelled, matches resigned, tournaments cancelled, and keys
// rotated last.
var destroyOrder = []string{
	"POST /api/v1/matches/:id/rematch", "POST /api/v1/matches/:id/seats/:seat/join", "POST /api/v1/matches/:id/seats/:seat/leave",
	"POST /api/v1/matches/:id/seats/:seat/decline", "POST /api/v1/matches/:id/cancel", "POST /api/v1/matches/:id/resign",
	"POST /api/v1/tournaments/:id/cancel", "POST /api/v1/players/me/key",
}

// ask sends route's cases for k and c.
func (s *suite) ask(route string, k *kind, c cred) {
	s.t.Helper()
	for _, r := range routeCases[route].build(s, k, c) {
		r.cred, r.kind = c, k
		a := s.do(r)
		if route == "POST /api/v1/players/me/key" && a.status == http.StatusOK {
			s.rotatedBy(c, a)
		}
	}
}

// rotatedBy follows a key the cross rotated: its player's key is the new one from then on.
func (s *suite) rotatedBy(c cred, a answer) {
	var out struct {
		Key string `json:"key"`
	}
	if json.Unmarshal(a.body, &out) != nil {
		s.t.Fatalf("a rotation answered %s", a.body)
	}
	for _, p := range s.people.byName {
		if p.key == c.secret {
			p.key = out.Key
			p.epoch++
		}
	}
	s.truth.forget()
}
