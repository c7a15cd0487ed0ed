package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
)

// joinSeat takes an open seat.
//
//	@Summary			Join an open seat
//	@ID					joinSeat
//	@Description		Takes an open seat with the seat's invite from the create answer (not needed when the match is listed in the lobby) and answers the seat's token, shown only here, with the match as the seat sees it. The last join deals the first hand. Of clients racing for one seat exactly one gets it; the others get 409 SEAT_TAKEN. Joined with a player key, the seat is bound to the player and shows the player's name: a name given must be that one (else 400 INVALID_REQUEST). The body may be left out, as a decline's or a resignation's, when it would say nothing: a join with a key to a listed match, or to a seat kept for the player.
//	@Tags				seats
//	@Accept				json
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			PlayerKey
//	@x-token-optional	true
//	@Param				id		path		string		true	"match id"
//	@Param				seat	path		int			true	"the open seat"	minimum(0)	maximum(3)
//	@Param				body	body		JoinRequest	false	"the player's name and the seat's invite; none (or {}) when neither is needed"
//	@Success			201		{object}	JoinResponse
//	@Failure			400		{object}	Problem	"INVALID_REQUEST"
//	@Failure			401		{object}	Problem	"UNAUTHORIZED: a player key that is not valid, or a seat reserved for another player (a challenge)"
//	@Failure			403		{object}	Problem	"INVALID_INVITE"
//	@Failure			404		{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure			408		{object}	Problem	"REQUEST_TIMEOUT: the body did not arrive before the server\'s read timeout"
//	@Failure			409		{object}	Problem	"MATCH_SEALED, SEAT_TAKEN, ALREADY_SEATED, MATCH_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played (to anyone: it has no open seat); checked before anything else, the same answer whatever the request (docs/tournaments.md); ALREADY_SEATED when the player holds another seat of the match; MATCH_FINISHED when it is finished or expired"
//	@Failure			413		{object}	Problem	"PAYLOAD_TOO_LARGE"
//	@Failure			415		{object}	Problem	"UNSUPPORTED_MEDIA_TYPE"
//	@Router				/api/v1/matches/{id}/seats/{seat}/join [post]
func (s *server) joinSeat(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	seat, err := seatParam(c)
	if err != nil {
		return err
	}
	var body JoinRequest // none, as a decline or a resignation takes none, joins with the key's name
	if err := jsonbody.Optional(c, &body); err != nil {
		return err
	}
	key, err := bearer(c) // a player key binds the seat to its player (docs/api-players.md, "Players")
	if err != nil {
		return err
	}
	if key != "" && !players.IsKey(key) {
		return domain.Detailf(domain.ErrUnauthorized, "a join takes a player key (which binds the seat to its player) or no Authorization, never a seat token")
	}
	joined, err := s.svc.Join(c.Request().Context(), c.Param("id"), referee.JoinRequest{Seat: seat, Name: body.Name, Invite: body.Invite, Key: key})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store") // the token is a secret
	return c.JSON(http.StatusCreated, JoinResponse{Seat: joined.Seat, Token: joined.Token, Match: ToMatchView(joined.Match)})
}

// leaveSeat gives up a seat before the match starts.
//
//	@Summary		Leave a seat
//	@ID				leaveSeat
//	@Description	Gives up the caller's seat while the match waits for players: the seat opens again (its invite works again) and the token stops working. Once the first hand is dealt, seats can no longer be left: 409 MATCH_STARTED.
//	@Tags			seats
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id		path		string	true	"match id"
//	@Param			seat	path		int		true	"the caller's seat"	minimum(0)	maximum(3)
//	@Success		200		{object}	MatchView
//	@Failure		400		{object}	Problem	"INVALID_REQUEST"
//	@Failure		401		{object}	Problem	"UNAUTHORIZED: not this seat's token"
//	@Failure		404		{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure		409		{object}	Problem	"MATCH_SEALED, MATCH_STARTED, MATCH_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router			/api/v1/matches/{id}/seats/{seat}/leave [post]
func (s *server) leaveSeat(c echo.Context) error {
	return s.seatCall(c, s.svc.Leave)
}

// resumeSeat takes a seat back from its bot.
//
//	@Summary		Resume a seat
//	@ID				resumeSeat
//	@Description	Takes the caller's seat back from its bot after the seat timed out autoplay_after times in a row: from now on the seat's player moves again, on the clock.
//	@Tags			seats
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id		path		string	true	"match id"
//	@Param			seat	path		int		true	"the caller's seat"	minimum(0)	maximum(3)
//	@Success		200		{object}	MatchView
//	@Failure		400		{object}	Problem	"INVALID_REQUEST: the seat is not on autoplay"
//	@Failure		401		{object}	Problem	"UNAUTHORIZED: not this seat's token"
//	@Failure		404		{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure		409		{object}	Problem	"MATCH_SEALED, MATCH_NOT_STARTED, MATCH_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router			/api/v1/matches/{id}/seats/{seat}/resume [post]
func (s *server) resumeSeat(c echo.Context) error {
	return s.seatCall(c, s.svc.Resume)
}

// seatCall runs a command of a seat's own holder and answers the caller's view after it.
func (s *server) seatCall(c echo.Context, run func(ctx context.Context, id string, v domain.Viewer, seat int) (domain.MatchView, error)) error {
	id, v, err := s.matchCaller(c, s.seatViewer)
	if err != nil {
		return err
	}
	seat, err := seatParam(c)
	if err != nil {
		return err
	}
	view, err := run(c.Request().Context(), id, v, seat)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(view.Version, v))
	return c.JSON(http.StatusOK, ToMatchView(view))
}

// seatParam reads the {seat} path parameter: 0 to 3.
func seatParam(c echo.Context) (int, error) {
	raw := c.Param("seat")
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 || n > 3 || raw != strconv.Itoa(n) {
		return 0, domain.Invalidf("seat must be 0, 1, 2 or 3, got %q", clip(raw))
	}
	return n, nil
}
