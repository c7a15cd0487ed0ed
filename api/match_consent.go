package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
)

// The routes of consent and resignation (docs/api-matches.md, "Consent"): nobody is put into a match
// they did not accept, and every match ends.

// declineSeat refuses a seat reserved for the caller.
//
//	@Summary		Decline a reserved seat
//	@ID				declineSeat
//	@Description	By the one a waiting match keeps the seat for (the seat's reserved_for): a challenged player with its key, or, for a rematch's seat, the seat's holder in the finished match the rematch follows (its seat token there, or its player's key). The match ends at once with status cancelled (match.cancelled, reason declined, seat the declined seat) and is never played or rated; the answer is the match as anyone sees it. A seat not reserved for anyone (taken, or open to all) is 409 SEAT_NOT_RESERVED.
//	@Tags			seats
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id		path		string	true	"match id"
//	@Param			seat	path		int		true	"the seat reserved for the caller"	minimum(0)	maximum(3)
//	@Success		200		{object}	MatchView
//	@Failure		400		{object}	Problem	"INVALID_REQUEST"
//	@Failure		401		{object}	Problem	"UNAUTHORIZED: no credential, or not the one the seat is reserved for"
//	@Failure		404		{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure		409		{object}	Problem	"MATCH_SEALED, SEAT_NOT_RESERVED, MATCH_STARTED, MATCH_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played (to anyone: no seat of it is reserved); checked before anything else, the same answer whatever the request (docs/tournaments.md); MATCH_FINISHED when it is finished, expired or cancelled"
//	@Router			/api/v1/matches/{id}/seats/{seat}/decline [post]
func (s *server) declineSeat(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	seat, err := seatParam(c)
	if err != nil {
		return err
	}
	credential, err := bearer(c)
	if err != nil {
		return err
	}
	view, err := s.svc.Decline(c.Request().Context(), c.Param("id"), seat, credential)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(view.Version, domain.Spectator()))
	return c.JSON(http.StatusOK, ToMatchView(view))
}

// cancelMatch withdraws a match that has not started.
//
//	@Summary		Withdraw a waiting match
//	@ID				cancelMatch
//	@Description	By a seat holder (its token, or its player's key) of a waiting match: a challenger taking a challenge back, a rematch's proposer its offer, a creator a match nobody joined. The match ends at once with status cancelled (match.cancelled, reason withdrawn, seat the caller's) and is never played or rated; the answer is the match as the caller sees it. A match in progress is resigned instead: 409 MATCH_STARTED.
//	@Tags			matches
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id	path		string	true	"match id"
//	@Success		200	{object}	MatchView
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED: not a seat of this match"
//	@Failure		404	{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure		409	{object}	Problem	"MATCH_SEALED, MATCH_STARTED, MATCH_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md); MATCH_FINISHED when it is finished, expired or cancelled"
//	@Router			/api/v1/matches/{id}/cancel [post]
func (s *server) cancelMatch(c echo.Context) error {
	return s.holderCall(c, s.svc.Cancel)
}

// resignMatch gives the caller's side up.
//
//	@Summary		Resign
//	@ID				resignMatch
//	@Description	By a seat holder (its token, or its player's key) of a match in progress (seat.resigned). With two sides (two players, or partners) the match ends at once and the other side wins, whatever the scores: match.ended follows and reveals the seed as usual. With three or more sides the seat is played by the greedy bot to the end, cannot be resumed, never wins, and its side ranks last in ratings. The answer is the match as the caller sees it. A waiting match is withdrawn or declined instead: 409 MATCH_NOT_STARTED.
//	@Tags			matches
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id	path		string	true	"match id"
//	@Success		200	{object}	MatchView
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED: not a seat of this match"
//	@Failure		404	{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure		409	{object}	Problem	"MATCH_SEALED, SEAT_RESIGNED, MATCH_NOT_STARTED, MATCH_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router			/api/v1/matches/{id}/resign [post]
func (s *server) resignMatch(c echo.Context) error {
	return s.holderCall(c, s.svc.Resign)
}

// holderCall runs a command of a seat holder of the match, whichever seat it holds, and
// answers the caller's view after it.
func (s *server) holderCall(c echo.Context, run func(ctx context.Context, id string, v domain.Viewer) (domain.MatchView, error)) error {
	id, v, err := s.matchCaller(c, s.seatViewer)
	if err != nil {
		return err
	}
	view, err := run(c.Request().Context(), id, v)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(view.Version, v))
	return c.JSON(http.StatusOK, ToMatchView(view))
}

// cancelEvents are the events of a match cancelled before it started: declined, when it was,
// then cancelled.
func cancelEvents(ev func(string) namedEvent, c domain.MatchCancelled) []namedEvent {
	var out []namedEvent
	if c.Reason == domain.CancelDeclined {
		e := ev(playerEventDeclined)
		e.data.BySeat = c.Seat
		out = append(out, e)
	}
	e := ev(playerEventCancelled)
	e.data.Status, e.data.Reason, e.data.BySeat = string(domain.StatusCancelled), string(c.Reason), c.Seat
	return append(out, e)
}
