package guarantees

import (
	"fmt"
	"net/http"

	"github.com/allfives/allfives/api"
)

// tournamentOf creates a tournament organised by org, enters entrants (and bots, entered by
// the organiser), starts it and waits for its first round's tables to have their matches.
func (s *suite) tournamentOf(org *person, spec api.CreateTournamentRequest, entrants []*person, bots ...string) api.TournamentView {
	s.t.Helper()
	var v api.TournamentView
	s.must(http.StatusCreated, request{method: http.MethodPost, path: "/api/v1/tournaments", cred: org.asKey(roleOrganiser), body: spec}, &v)
	for _, p := range entrants {
		s.must(http.StatusCreated, request{method: http.MethodPost, path: "/api/v1/tournaments/" + v.ID + "/entries", cred: p.asKey(roleOwnKey), body: api.EnterTournamentRequest{}}, nil)
	}
	for _, b := range bots {
		s.must(http.StatusCreated, request{method: http.MethodPost, path: "/api/v1/tournaments/" + v.ID + "/entries", cred: org.asKey(roleOrganiser), body: api.EnterTournamentRequest{Bot: b}}, nil)
	}
	s.must(http.StatusOK, request{method: http.MethodPost, path: "/api/v1/tournaments/" + v.ID + "/start", cred: org.asKey(roleOrganiser)}, nil)
	return s.roundDealt(v.ID, 1)
}

// tview reads tournament id.
func (s *suite) tview(id string) api.TournamentView {
	s.t.Helper()
	var v api.TournamentView
	s.must(http.StatusOK, request{method: http.MethodGet, path: "/api/v1/tournaments/" + id}, &v)
	return v
}

// roundDealt waits for round n of tournament id to have a match at every table.
func (s *suite) roundDealt(id string, n int) api.TournamentView {
	s.t.Helper()
	var v api.TournamentView
	s.waitFor(fmt.Sprintf("round %d of tournament %s is dealt", n, id), func() bool {
		v = s.tview(id)
		if len(v.Rounds) < n {
			return false
		}
		for _, t := range v.Rounds[n-1].Tables {
			if t.Match == "" {
				return false
			}
		}
		return true
	})
	return v
}

// tableKind is the kind of one table of a tournament's round: its match, held by the keys of
// the players at it; otherTable is a player of another table of the round.
func (s *suite) tableKind(name string, v api.TournamentView, round, table int, org *person) *kind {
	s.t.Helper()
	r := v.Rounds[round-1]
	k := newKind(name, r.Tables[table].Match)
	k.tournament, k.organiser, k.own = v.ID, org, -1
	for _, seat := range r.Tables[table].Seats {
		if p := s.people.byID(seat.Player); p != nil {
			k.seats[seat.Seat] = holder{who: p}
			if k.own < 0 {
				k.own = seat.Seat
			}
		}
	}
	for i, t := range r.Tables {
		for _, seat := range t.Seats {
			if p := s.people.byID(seat.Player); i != table && p != nil && k.otherTable == nil && p != org {
				k.otherTable = p
			}
		}
	}
	return s.add(k)
}

// buildTournaments makes the kinds of docs/design.md ("The guarantee suite") that tournaments
// hold: a Swiss and a round robin round being played, a duplicate round with one table ended
// and one live, and a duplicate tournament cancelled mid-round by its organiser, who plays in
// it.
func (s *suite) buildTournaments() {
	s.t.Helper()
	pp := s.people
	swiss := s.tournamentOf(pp.get("Ned"), api.CreateTournamentRequest{Name: "Swiss Open", Format: "2p", System: "swiss", Rounds: 2},
		[]*person{pp.get("Oda"), pp.get("Pia"), pp.get("Quy"), pp.get("Rex")})
	s.steps(s.tableKind("swiss", swiss, 1, 0, pp.get("Ned")), 3)

	rr := s.tournamentOf(pp.get("Sol"), api.CreateTournamentRequest{Name: "Round Robin", Format: "2p", System: "round_robin"},
		[]*person{pp.get("Tia"), pp.get("Uma")}, "random", "greedy")
	for i, t := range rr.Rounds[0].Tables {
		if pp.byID(t.Seats[0].Player) != nil || pp.byID(t.Seats[1].Player) != nil {
			s.steps(s.tableKind("round robin", rr, 1, i, pp.get("Sol")), 3)
			break
		}
	}
	s.duplicate()
	s.cancelledMidRound()
}

// cancelledMidRound: Cyd organises a rated duplicate tournament, plays in it, and cancels it
// while its round's matches are being played.
func (s *suite) cancelledMidRound() {
	s.t.Helper()
	pp := s.people
	cyd := pp.get("Cyd")
	v := s.tournamentOf(cyd, api.CreateTournamentRequest{Name: "Cancelled Cup", Format: "2p", System: "swiss", Rounds: 1, Duplicate: true, Rated: true},
		[]*person{cyd, pp.get("Dax"), pp.get("Eli"), pp.get("Flo")})
	table := 0
	for _, seat := range v.Rounds[0].Tables[0].Seats {
		if seat.Player == cyd.id {
			table = 1
		}
	}
	k := s.tableKind("cancelled mid-round", v, 1, table, cyd)
	k.otherTable = nil // Cyd sits at the other table: the organiser's key is that role's
	s.steps(k, 3)
	s.must(http.StatusOK, request{method: http.MethodPost, path: "/api/v1/tournaments/" + v.ID + "/cancel", cred: cyd.asKey(roleOrganiser)}, nil)
}

// seekMade: Lea and Max each seek a two-player match; the matcher pairs them.
func (s *suite) seekMade() {
	s.t.Helper()
	lea, max := s.people.get("Lea"), s.people.get("Max")
	var ids []string
	for _, p := range []*person{lea, max} {
		var out api.SeekResponse
		s.must(http.StatusCreated, request{method: http.MethodPost, path: "/api/v1/seeks", cred: p.asKey(roleOwnKey), body: api.CreateSeekRequest{Format: "2p"}}, &out)
		ids = append(ids, out.Seek.ID)
	}
	seats := map[int]*person{}
	match := ""
	s.waitFor("the two seeks are paired", func() bool {
		for i, p := range []*person{lea, max} {
			var out api.SeekResponse
			s.must(http.StatusOK, request{method: http.MethodGet, path: "/api/v1/seeks/" + ids[i], cred: p.asKey(roleOwnKey)}, &out)
			if out.Seek.Status != "matched" {
				return false
			}
			match, seats[*out.Seek.Seat] = *out.Seek.Match, p
		}
		return true
	})
	k := newKind("seek-made", match)
	k.seeks = ids
	for seat, p := range seats {
		k.seats[seat] = holder{who: p}
	}
	s.steps(s.add(k), 3)
}
