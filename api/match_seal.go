package api

import (
	"errors"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
)

// The seal (docs/tournaments.md, "Sealed matches"): while a duplicate round is being played,
// every request about one of its matches by anyone not seated in it answers the same 409
// MATCH_SEALED, on every route that names the match, whatever the method, query, headers,
// body or credential. It is checked by one middleware, before the routes' own checks (their
// query, body, credential, and the match's state), so that no status or word of an answer
// depends on anything of the match: a table of the round holds the same cards as the others,
// and how far another has played, or whether it has ended, tells it something of them.

// matchRoute is the prefix of every route about one match: the seal guards each, a route
// added later included.
const matchRoute = "/api/v1/matches/:id"

// aboutMatch says whether route (an Echo route path) names one match.
func aboutMatch(route string) bool {
	return route == matchRoute || strings.HasPrefix(route, matchRoute+"/")
}

// streamRoute is the one route that also takes its credential in the query (?token=,
// ?ticket=), for browsers, whose EventSource sends no Authorization.
const streamRoute = matchRoute + "/stream"

// sealFirst is the middleware of the seal. A match not found, or not sealed, passes on to its
// route, which answers as it always does; so does a request by a holder of one of a sealed
// match's seats, who reads it as its seat. Anyone else gets domain.ErrMatchSealed, the same
// bytes but for the request id and the path whoever asks: no credential, a malformed or
// unknown one, a key of a player of another table, of the organiser, of anyone.
func (s *server) sealFirst(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.svc == nil || !aboutMatch(c.Path()) {
			return next(c)
		}
		id := matchID(c)
		sealed, err := s.svc.Sealed(c.Request().Context(), id)
		switch {
		case errors.Is(err, domain.ErrMatchNotFound):
			return next(c) // the route says so, in its own order
		case err != nil:
			return err
		case !sealed:
			return next(c)
		}
		if s.holdsSeat(c, id) {
			return next(c)
		}
		return domain.ErrMatchSealed
	}
}

// matchID is the id the request names: the route's parameter or, on a path whose route
// takes another method (HEAD of a read, say: 405), which Echo gives no parameters, the path's
// segment in its place.
func matchID(c echo.Context) string {
	if id := c.Param("id"); id != "" {
		return id
	}
	rest, ok := strings.CutPrefix(c.Request().URL.Path, "/api/v1/matches/")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, "/")
	return id
}

// holdsSeat says whether the request's credential holds a seat of match id: a seat token or
// a player key in Authorization, or, on the stream, a seat token in ?token= or a ticket in
// ?ticket=, which is spent here and kept for the stream (redeemedTicket). Anything the route
// would refuse (two credentials, a malformed header) holds nothing.
func (s *server) holdsSeat(c echo.Context, id string) bool {
	ctx := c.Request().Context()
	token, err := bearer(c)
	if err != nil {
		return false
	}
	if c.Path() == streamRoute {
		q := c.QueryParams()
		switch {
		case q.Has("ticket") && (token != "" || q.Has("token")):
			return false
		case q.Has("ticket"):
			return s.holdsTicket(c, id, q.Get("ticket"))
		case q.Has("token") && token == "":
			token = q.Get("token")
		}
	}
	if token == "" {
		return false
	}
	v, err := s.svc.Authenticate(ctx, id, token)
	if err != nil {
		return false
	}
	_, seat := v.Seat()
	return seat
}

// ticketKey is where holdsSeat keeps the ticket it spent, for the stream's own check.
const ticketKey = "allfives.sealTicket"

// holdsTicket spends ticket for match id's stream and says whether it holds a seat now; a
// ticket that does keeps, for the stream to use instead of redeeming it again.
func (s *server) holdsTicket(c echo.Context, id, ticket string) bool {
	if s.players == nil || ticket == "" {
		return false
	}
	t, err := s.redeem(c, id, ticket)
	if err != nil {
		return false
	}
	ctx := c.Request().Context()
	if t.Player != "" {
		if err := s.players.KeyHeld(ctx, t.Player, t.Credential); err != nil {
			return false
		}
	}
	v, err := s.svc.AuthenticateHeld(ctx, id, t.Credential, t.Player)
	if err != nil {
		return false
	}
	if seat, ok := v.Seat(); !ok || seat != t.Seat {
		return false
	}
	c.Set(ticketKey, t)
	return true
}

// redeemedTicket is the ticket the seal spent for this request, if it did.
func redeemedTicket(c echo.Context) (players.Ticket, bool) {
	t, ok := c.Get(ticketKey).(players.Ticket)
	return t, ok
}
