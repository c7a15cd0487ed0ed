package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
)

// TicketResponse is a single-use ticket to the player's stream: good for one
// GET /api/v1/players/me/stream?ticket=... opened before expires_at (60 s).
type TicketResponse struct {
	// Ticket opens one stream, once; it is shown only here and kept only as a hash.
	Ticket    string    `json:"ticket" example:"aft_Zm9vYmFyYmF6cXV1eGZvb2JhcmJhenF1dXhmb29iYXI"`
	ExpiresAt time.Time `json:"expires_at" format:"date-time"`
}

// SeatTicketResponse is a single-use ticket to a match's stream as one seat sees it: good for
// one GET /api/v1/matches/{id}/stream?ticket=... opened before expires_at (60 s).
type SeatTicketResponse struct {
	// Ticket opens one stream of this match, once; it is shown only here and kept only as a hash.
	Ticket    string    `json:"ticket" example:"aft_Zm9vYmFyYmF6cXV1eGZvb2JhcmJhenF1dXhmb29iYXI"`
	ExpiresAt time.Time `json:"expires_at" format:"date-time"`
	// Seat is the seat the ticket's stream sees the match as.
	Seat int `json:"seat"`
}

// createPlayerTicket issues a ticket to the caller's own stream.
//
//	@Summary		Get a ticket to the player's stream
//	@ID				createPlayerTicket
//	@Description	A single-use ticket for GET /api/v1/players/me/stream?ticket=..., for a browser's EventSource, which cannot send Authorization: no long-lived secret goes into a URL, where proxies' access logs keep it. The ticket opens one stream, once, within 60 seconds, on any instance of the server; used, expired or malformed it is 401 UNAUTHORIZED. The stream it opens holds no more than the key: it ends when the key is rotated.
//	@Tags			players
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Success		201	{object}	TicketResponse
//	@Failure		400	{object}	Problem		"INVALID_REQUEST"
//	@Failure		401	{object}	Problem		"UNAUTHORIZED: no key, or not a valid one"
//	@Failure		429	{object}	Problem		"RATE_LIMITED: this client address or player was issued as many tickets as --limit-tickets allows (docs/operations.md, \"Limits\"), or over --rate-limit; Retry-After says when to retry"
//	@Header			429	{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/players/me/tickets [post]
func (s *server) createPlayerTicket(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	if s.limits.tickets != nil {
		if err := s.limits.tickets.admit(c, s.keyPlayer(c.Request().Context(), key)); err != nil {
			return err
		}
	}
	t, err := s.players.PlayerTicket(c.Request().Context(), key)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, TicketResponse{Ticket: t.Ticket, ExpiresAt: t.ExpiresAt})
}

// createMatchTicket issues a ticket to a match's stream, bound to the caller's seat.
//
//	@Summary		Get a ticket to a match's stream
//	@ID				createMatchTicket
//	@Description	A single-use ticket for GET /api/v1/matches/{id}/stream?ticket=..., bound to the caller's seat: send the seat's token, or the key of a player who holds a seat of the match. A browser's EventSource cannot send Authorization, and a seat token in a URL ends up in access logs, where it shows that seat's tiles; a ticket opens one stream, once, within 60 seconds, on any instance of the server. Used, expired, of another match or malformed it is 401 UNAUTHORIZED. The stream it opens holds no more than the credential it was issued with: it ends when the seat changes hands, or when the key is rotated.
//	@Tags			matches
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id	path		string	true	"match id"
//	@Success		201	{object}	SeatTicketResponse
//	@Failure		400	{object}	Problem		"INVALID_REQUEST"
//	@Failure		401	{object}	Problem		"UNAUTHORIZED: no credential, or not one of a seat of this match"
//	@Failure		404	{object}	Problem		"MATCH_NOT_FOUND"
//	@Failure		409	{object}	Problem		"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Failure		429	{object}	Problem		"RATE_LIMITED: this client address or player was issued as many tickets as --limit-tickets allows (docs/operations.md, \"Limits\"), or over --rate-limit; Retry-After says when to retry"
//	@Header			429	{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/matches/{id}/tickets [post]
func (s *server) createMatchTicket(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	cred, err := bearer(c)
	if err != nil {
		return err
	}
	if cred == "" {
		return domain.Detailf(domain.ErrUnauthorized, "send the seat's token, or the key of its player, as Authorization: Bearer")
	}
	ctx := c.Request().Context()
	id := c.Param("id")
	v, err := s.svc.Authenticate(ctx, id, cred)
	if err != nil {
		return err
	}
	seat, ok := v.Seat()
	if !ok {
		return domain.ErrUnauthorized
	}
	t := players.Ticket{Match: id, Seat: seat, Credential: players.HashCredential(cred)}
	if players.IsKey(cred) {
		p, err := s.players.Authenticate(ctx, cred)
		if err != nil {
			return err
		}
		t.Player = p.ID
	}
	if err := s.limits.tickets.admit(c, t.Player); err != nil {
		return err
	}
	issued, err := s.players.IssueTicket(ctx, t)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, SeatTicketResponse{Ticket: issued.Ticket, ExpiresAt: issued.ExpiresAt, Seat: seat})
}

// viewerCheck authenticates a stream's credential again: the viewer it holds now.
type viewerCheck func(ctx context.Context) (domain.Viewer, error)

// errTicketTwice refuses a stream given a ticket and another credential: which one it should
// act on is anyone's guess.
var errTicketTwice = domain.Invalidf("send one credential: a ticket in ?ticket=, or a token in Authorization or ?token=, not both")

// matchStreamCheck is how a match stream authenticates its caller on every read: by the seat
// token of Authorization or ?token=, or by the ticket of ?ticket=, which is spent here. nil
// is a spectator.
func (s *server) matchStreamCheck(c echo.Context, q url.Values, id string) (viewerCheck, error) {
	if !q.Has("ticket") {
		token, err := streamToken(c, q)
		if err != nil || token == "" {
			return nil, err
		}
		return func(ctx context.Context) (domain.Viewer, error) { return s.svc.Authenticate(ctx, id, token) }, nil
	}
	if h := c.Request().Header.Values(echo.HeaderAuthorization); len(h) > 0 || q.Has("token") {
		return nil, errTicketTwice
	}
	t, spent := redeemedTicket(c) // spent by the seal of a sealed match (match_seal.go)
	if !spent {
		var err error
		if t, err = s.redeem(c, id, q.Get("ticket")); err != nil {
			return nil, err
		}
	}
	if t.Player == "" {
		return func(ctx context.Context) (domain.Viewer, error) {
			return s.svc.AuthenticateHeld(ctx, id, t.Credential, "")
		}, nil
	}
	return func(ctx context.Context) (domain.Viewer, error) {
		if err := s.players.KeyHeld(ctx, t.Player, t.Credential); err != nil {
			return domain.Viewer{}, err
		}
		v, err := s.svc.AuthenticateHeld(ctx, id, nil, t.Player)
		if err != nil {
			return domain.Viewer{}, err
		}
		if seat, _ := v.Seat(); seat != t.Seat {
			return domain.Viewer{}, errSeatLost // the player left the seat and took another
		}
		return v, nil
	}, nil
}

// redeem spends ticket for the stream of match ("" for the player's stream).
func (s *server) redeem(c echo.Context, match, ticket string) (players.Ticket, error) {
	if s.players == nil {
		return players.Ticket{}, domain.Detailf(domain.ErrUnauthorized, "this server issues no tickets")
	}
	t, err := s.players.Redeem(c.Request().Context(), match, ticket)
	if err != nil && !errors.Is(err, domain.ErrUnauthorized) {
		return players.Ticket{}, err
	}
	return t, err
}
