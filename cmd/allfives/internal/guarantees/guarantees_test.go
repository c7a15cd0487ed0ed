package guarantees

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// TestGuarantees is the guarantee suite (docs/design.md, "The guarantee suite"), on SQLite and
// on PostgreSQL: it makes every kind of match, asks every route of the router about each with
// every credential, reading then acting, holds every answer to I1, I2, I4 and I5, ends every
// match and tournament, asks again, and runs the verify and tournament commands' code on every
// export (I3). It logs what it checked: docs/design.md quotes the counts.
func TestGuarantees(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel() // the engines share nothing; each waits on its own store
			s := newSuite(t, e.name, e.db(t))
			s.run()
		})
	}
}

func (s *suite) run() {
	s.t.Helper()
	routes := routesOf(s.srv.Echo)
	if bad := unclassified(routes); len(bad) > 0 {
		s.t.Fatal(strings.Join(bad, "\n"))
	}
	s.stranger = s.people.fresh("Stranger")
	s.buildMatches()
	s.seekMade()
	s.buildTournaments()
	s.t.Logf("%s: %d kinds made: %s", s.engine, len(s.kinds), s.kindNames())
	s.cross(routes, reading)
	s.cross(routes, acting)
	s.timeOut()
	s.cross(routes, destroying)
	s.finish()
	s.cross(routes, ended)
	s.verifyAll()
	s.t.Logf("guarantee suite on %s: %s", s.engine, s.counts)
	s.counts.quoted(s.t)
}

// kindNames lists the kinds made.
func (s *suite) kindNames() string {
	var names []string
	for _, k := range s.kinds {
		names = append(names, k.name)
	}
	return strings.Join(names, ", ")
}

// timeOut moves the clock past every turn's deadline (but not a rematch offer's): the seat
// to move in each match with a clock times out, and the sweeper plays its turn.
func (s *suite) timeOut() {
	s.t.Helper()
	s.clock.Advance(2 * time.Minute)
	if _, err := s.srv.Matches.Sweep(context.Background()); err != nil {
		s.t.Fatalf("sweep: %v", err)
	}
	s.waitFor("a turn times out", func() bool {
		for _, k := range s.kinds {
			for _, e := range s.truth.of(k.match).events {
				if e.Type == domain.TypeTurnTimedOut {
					return true
				}
			}
		}
		return false
	})
}

// finish ends every match and tournament the suite made: live matches are resigned by a seat
// holder, offers withdrawn, tournaments played round after round (their humans resigning,
// their bots' tables played by the bot pool) to their end.
func (s *suite) finish() {
	s.t.Helper()
	for _, k := range s.kinds {
		if k.tournament == "" {
			s.end(k)
		}
	}
	for _, k := range s.kinds {
		if k.tournament != "" {
			s.endTournament(k)
		}
	}
}

// end resigns or withdraws k's match, whichever it needs, with a credential still holding.
func (s *suite) end(k *kind) {
	s.t.Helper()
	m := s.truth.of(k.match)
	if m == nil || !m.live() {
		return
	}
	act := "/resign"
	if m.status == "waiting" {
		act = "/cancel"
	}
	for _, seat := range slices.Sorted(maps.Keys(k.seats)) {
		c, ok := holderCred(k, seat)
		if ok && len(s.truth.holds(m, c)) > 0 && s.do(request{method: http.MethodPost, path: matchPath(k.match, act), cred: c, kind: k}).status == http.StatusOK {
			return
		}
	}
	s.t.Fatalf("%s: no credential of the suite holds a seat of match %s to end it", k.name, k.match)
}

// endTournament plays k's tournament to its end: every match of a running round with a
// human seat is resigned by that seat's player until the tournament is over.
func (s *suite) endTournament(k *kind) {
	s.t.Helper()
	s.waitFor("tournament "+k.tournament+" ends", func() bool {
		v := s.tview(k.tournament)
		over := v.Status == "finished" || v.Status == "cancelled"
		for _, r := range v.Rounds {
			for _, t := range r.Tables {
				// A cancelled tournament's matches are over too; any left live is ended.
				over = !s.resignTable(k, t) && over
			}
		}
		return over
	})
}

// resignTable resigns a live tournament match with the key of one of its human seats; it
// answers whether the match was live.
func (s *suite) resignTable(k *kind, t api.TournamentTable) bool {
	s.t.Helper()
	m := s.truth.of(t.Match)
	if t.Match == "" || m == nil || !m.live() {
		return false
	}
	for _, seat := range t.Seats {
		if p := s.people.byID(seat.Player); p != nil {
			s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(t.Match, "/resign"), cred: p.asKey(roleOwnKey), kind: k}, nil)
			return true
		}
	}
	return true // a table of bots: the bot pool plays it out
}
