package guarantees

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/allfives/allfives/api"
)

// scope is what a route's cases are asked about.
type scope int

const (
	onMatch      scope = iota // every kind's match
	onTournament              // every kind with a tournament
	onSeek                    // every kind with seeks
	onPlayer                  // the player of every kind's own seat
	onNothing                 // once per credential, about no kind
)

// cases are the requests a route is asked with, for a kind and a credential: every query
// shape it reads, and for acting routes a body valid for the route, so that the request
// reaches the handler's logic. destructive acts (those that end, empty or cancel what they
// touch) run last, after every other case has used the fixtures.
type cases struct {
	scope       scope
	destructive bool
	build       func(s *suite, k *kind, c cred) []request
}

// routeCases covers every route of catalogue.
var routeCases = map[string]cases{}

func init() {
	for route, cs := range matchCases {
		routeCases[route] = cs
	}
	for route, cs := range otherCases {
		routeCases[route] = cs
	}
}

// get asks path with no query and with query shapes. A sealed match is asked with every
// shape and with HEAD (I2: the seal is checked first, whatever the query); any other with the
// first few shapes, which reach the code paths I1 judges.
func get(path string, few int, shapes ...string) func(*suite, *kind, cred) []request {
	return func(s *suite, k *kind, c cred) []request {
		p := fmt.Sprintf(path, k.match)
		var out []request
		asked := shapes[:min(few, len(shapes))]
		if s.sealedNow(k) {
			out, asked = append(out, request{method: http.MethodHead, path: p}), shapes
		}
		for _, q := range append([]string{""}, asked...) {
			out = append(out, request{method: http.MethodGet, path: p + q})
		}
		return out
	}
}

// sealedNow says k's match is sealed now.
func (s *suite) sealedNow(k *kind) bool {
	m := s.truth.of(k.match)
	return m != nil && m.sealed
}

// post acts on path with no body.
func post(path string) func(*suite, *kind, cred) []request {
	return func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: fmt.Sprintf(path, k.match)}}
	}
}

// matchCases are the cases of the routes under /api/v1/matches/:id.
var matchCases = map[string]cases{
	"GET /api/v1/matches/:id": {onMatch, false, func(s *suite, k *kind, c cred) []request {
		out := get("/api/v1/matches/%s", 0)(s, k, c)
		version := 0
		if m := s.truth.of(k.match); m != nil {
			version = m.version
		}
		p := matchPath(k.match, "")
		tags := []string{`"` + strconv.Itoa(version) + `-s"`, "*", `"` + strconv.Itoa(version) + `-0"`}
		if !s.sealedNow(k) {
			tags = tags[:1]
		}
		for _, tag := range tags {
			out = append(out, request{method: http.MethodGet, path: p, header: map[string]string{"If-None-Match": tag}})
		}
		return out
	}},
	"GET /api/v1/matches/:id/legal-moves": {onMatch, false, get("/api/v1/matches/%s/legal-moves", 0)},
	"GET /api/v1/matches/:id/events": {onMatch, false,
		get("/api/v1/matches/%s/events", 2, "?after=2&limit=3", "?limit=1", "?after=0&limit=1", "?after=99999", "?limit=0", "?limit=x")},
	"GET /api/v1/matches/:id/stream": {onMatch, false, streamCases},
	"GET /api/v1/matches/:id/replay": {onMatch, false,
		get("/api/v1/matches/%s/replay", 2, "?step=5", "?step=99999", "?step=1", "?step=2", "?step=0")},
	"GET /api/v1/matches/:id/audit":  {onMatch, false, get("/api/v1/matches/%s/audit", 0)},
	"GET /api/v1/matches/:id/export": {onMatch, false, get("/api/v1/matches/%s/export", 1, "?format=text", "?format=json", "?format=xml")},
	"GET /api/v1/matches/:id/review": {onMatch, false, get("/api/v1/matches/%s/review", 0)},
	"GET /api/v1/matches/:id/analysis": {onMatch, false,
		get("/api/v1/matches/%s/analysis", 3, "?step=4", "?step=5", "?step=99999", "?step=0", "?step=x")},
	"POST /api/v1/matches/:id/moves":  {onMatch, false, moveCases},
	"POST /api/v1/matches/:id/review": {onMatch, false, post("/api/v1/matches/%s/review")},
	"POST /api/v1/matches/:id/branches": {onMatch, false, func(s *suite, k *kind, c cred) []request {
		p := matchPath(k.match, "/branches")
		return []request{
			{method: http.MethodPost, path: p, body: api.CreateBranchRequest{Step: 5, Bot: "greedy"}},
			{method: http.MethodPost, path: p, body: api.CreateBranchRequest{Step: 99999, Bot: "random"}},
		}
	}},
	"POST /api/v1/matches/:id/rematch": {onMatch, true, post("/api/v1/matches/%s/rematch")},
	"POST /api/v1/matches/:id/tickets": {onMatch, false, ticketCases},
	"POST /api/v1/matches/:id/seats/:seat/resume": {onMatch, false, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: matchPath(k.match, fmt.Sprintf("/seats/%d/resume", s.seatOf(k, c)))}}
	}},
	"POST /api/v1/matches/:id/seats/:seat/join": {onMatch, true, func(s *suite, k *kind, c cred) []request {
		body := api.JoinRequest{}
		if !c.isKey {
			body = api.JoinRequest{Name: "Joiner " + letters(s.counts.requests%700+1), Invite: k.invite}
		}
		return []request{{method: http.MethodPost, path: matchPath(k.match, fmt.Sprintf("/seats/%d/join", k.reservedOr())), body: body}}
	}},
	"POST /api/v1/matches/:id/seats/:seat/decline": {onMatch, true, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: matchPath(k.match, fmt.Sprintf("/seats/%d/decline", k.reservedOr()))}}
	}},
	"POST /api/v1/matches/:id/seats/:seat/leave": {onMatch, true, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: matchPath(k.match, fmt.Sprintf("/seats/%d/leave", s.seatOf(k, c)))}}
	}},
	"POST /api/v1/matches/:id/cancel": {onMatch, true, post("/api/v1/matches/%s/cancel")},
	"POST /api/v1/matches/:id/resign": {onMatch, true, post("/api/v1/matches/%s/resign")},
}

// reservedOr is the seat a join or a decline names: the kind's reserved seat, else its own.
func (k *kind) reservedOr() int {
	if k.reserved >= 0 {
		return k.reserved
	}
	return k.own
}

// seatOf is the seat c holds in k's match, else the kind's own seat.
func (s *suite) seatOf(k *kind, c cred) int {
	if held := s.truth.holds(s.truth.of(k.match), c); len(held) > 0 {
		return held[0]
	}
	return k.own
}

// streamCases open the match's stream from its start, with views, and with the seat token
// in the URL as old clients send it; a sealed match's also with HEAD, from a seq and resumed
// by Last-Event-ID.
func streamCases(s *suite, k *kind, c cred) []request {
	p := matchPath(k.match, "/stream")
	sealed := s.sealedNow(k)
	var out []request
	if sealed {
		out = append(out, request{method: http.MethodHead, path: p})
	}
	for i, q := range []string{"", "?view=1", "?after=1"} {
		if i < 2 || sealed {
			out = append(out, request{method: http.MethodGet, path: p + q})
		}
	}
	if sealed {
		out = append(out, request{method: http.MethodGet, path: p, header: map[string]string{"Last-Event-ID": "2"}})
	}
	if c.secret != "" && !c.isKey {
		out = append(out, request{method: http.MethodGet, path: p + "?token=" + c.secret, noBearer: true})
	}
	return out
}

// moveCases: a holder of the seat to move plays one of its legal moves; anyone else asks
// to draw, a body valid for every seat, and of a sealed match also with If-Match and an
// Idempotency-Key.
func moveCases(s *suite, k *kind, c cred) []request {
	body := api.MoveRequest{Action: "draw"}
	m := s.truth.of(k.match)
	if held := s.truth.holds(m, c); len(held) > 0 && m.status == "in_progress" {
		var lm api.LegalMovesResponse
		a := s.do(request{method: http.MethodGet, path: matchPath(k.match, "/legal-moves"), cred: c, kind: k})
		if a.status == http.StatusOK && decode(a.body, &lm) && len(lm.LegalMoves) > 0 {
			mv := lm.LegalMoves[0]
			body = api.MoveRequest{Action: mv.Action}
			if mv.Action == "play" {
				body.Tile, body.End = &mv.Tile, &mv.End
			}
		}
	}
	out := []request{{method: http.MethodPost, path: matchPath(k.match, "/moves"), body: body}}
	if s.sealedNow(k) && len(s.truth.holds(m, c)) == 0 {
		// An outsider's conditional and keyed move is refused as sealed too.
		out = append(out, request{method: http.MethodPost, path: matchPath(k.match, "/moves"), body: body,
			header: map[string]string{"If-Match": `"1"`, "Idempotency-Key": "suite-key"}})
	}
	return out
}

// ticketCases ask for a stream ticket, and open the stream with it when one is given.
func ticketCases(s *suite, k *kind, c cred) []request {
	r := request{method: http.MethodPost, path: matchPath(k.match, "/tickets"), cred: c, kind: k}
	a := s.do(r)
	var t api.SeatTicketResponse
	if a.status != http.StatusCreated || !decode(a.body, &t) {
		return nil
	}
	return []request{{method: http.MethodGet, path: matchPath(k.match, "/stream?ticket="+t.Ticket), noBearer: true}}
}
