package guarantees

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/cmd/allfives/internal/tourncheck"
	"github.com/allfives/allfives/cmd/allfives/internal/verify"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/domain/tournament"
)

// verifyAll holds I3 (verifiable): the export of every match in the store that finished,
// was cancelled or expired passes `allfives verify`'s own code, and every tournament's export
// with its matches' exports passes `allfives tournament`'s.
func (s *suite) verifyAll() {
	s.t.Helper()
	ctx := context.Background()
	q := referee.HistoryQuery{Limit: 100}
	for {
		page, err := s.srv.Store.History(ctx, q)
		if err != nil {
			s.t.Fatalf("list every match: %v", err)
		}
		for _, it := range page.Matches {
			switch it.Summary.Status {
			case "finished", "cancelled", "expired":
				s.verifyMatch(it.ID)
			}
		}
		if page.NextCursor == "" {
			break
		}
		q.Cursor = page.NextCursor
	}
	var list api.TournamentList
	s.must(http.StatusOK, request{method: http.MethodGet, path: "/api/v1/tournaments?limit=100"}, &list)
	for _, t := range list.Tournaments {
		s.checkTournament(t.ID)
	}
}

// export reads match id's JSON export as anyone may.
func (s *suite) export(id string) answer {
	return s.do(request{method: http.MethodGet, path: matchPath(id, "/export"), kind: s.kindOf(id)})
}

// verifyMatch runs verify's checks on match id's export.
func (s *suite) verifyMatch(id string) {
	s.t.Helper()
	a := s.export(id)
	v := seen{r: request{method: http.MethodGet, path: matchPath(id, "/export"), kind: s.kindOf(id), cred: cred{role: roleNone}}, a: a,
		route: "GET /api/v1/matches/:id/export"}
	if a.status != http.StatusOK {
		s.violation("I3", v, "the export of a match that is over answered %d", a.status)
		return
	}
	s.counts.add(&s.counts.exports)
	res := verify.Export(a.body)
	if !res.OK() {
		s.violation("I3", v, "allfives verify fails the export of match %s (%s): %v", id, s.truth.of(id).status, res.Err())
	}
	if msg := closedSaysNoDeal(res); msg != "" {
		s.violation("I3", v, "allfives verify checked the deals of match %s yet says %q", id, msg)
	}
}

// closedSaysNoDeal is verify's "closed" line when it says the match ended before any deal
// although verify checked its deals (a tournament's cancel after the deal), else "".
func closedSaysNoDeal(res verify.Result) string {
	dealt, closed := false, ""
	for _, c := range res.Checks {
		switch c.Name {
		case audit.CheckDeals:
			dealt = true
		case "closed":
			closed = c.Detail
		}
	}
	if dealt && strings.Contains(closed, "before any deal") {
		return closed
	}
	return ""
}

// checkTournament runs the tournament check on tournament id's export and its matches'.
func (s *suite) checkTournament(id string) {
	s.t.Helper()
	path := "/api/v1/tournaments/" + id + "/export"
	a := s.do(request{method: http.MethodGet, path: path})
	v := seen{r: request{method: http.MethodGet, path: path, cred: cred{role: roleNone}}, a: a, route: "GET /api/v1/tournaments/:id/export"}
	var tx api.TournamentExport
	if a.status != http.StatusOK || json.Unmarshal(a.body, &tx) != nil {
		s.violation("I3", v, "the tournament's export answered %d", a.status)
		return
	}
	var matches [][]byte
	for _, r := range tx.Tournament.Rounds {
		for _, t := range r.Tables {
			if t.Match == "" {
				continue
			}
			if m := s.export(t.Match); m.status == http.StatusOK {
				matches = append(matches, m.body)
			}
		}
	}
	s.counts.add(&s.counts.tourneys)
	rep, err := tourncheck.Recompute(a.body, matches...)
	if err != nil || !rep.OK {
		s.violation("I3", v, "allfives tournament fails tournament %s (%s): %v %s", id, tx.Tournament.Status, err, failedChecks(rep.Checks))
	}
}

// failedChecks names the failed checks of a tournament report.
func failedChecks(checks []tournament.Check) string {
	out := ""
	for _, c := range checks {
		if !c.OK {
			out += fmt.Sprintf("[%s: %s]", c.Name, c.Detail)
		}
	}
	return out
}

// kindOf is the kind whose match is id, nil when none is.
func (s *suite) kindOf(id string) *kind {
	for _, k := range s.kinds {
		if k.match == id {
			return k
		}
	}
	return nil
}
