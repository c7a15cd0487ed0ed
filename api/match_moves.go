package api

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// move plays one action for the caller's seat.
//
//	@Summary		Make a move
//	@ID				makeMove
//	@Description	Plays, draws or passes for the seat whose token is given. Bots then play until a human is to move, except that a paced bot's reply (expert, its levels, pimc) and the turns after it follow the answer, on the match's stream and in its state. The answer carries every event the move caused up to then, as the caller may see them, and the caller's view after them. If-Match makes the move conditional on the match's version (409 VERSION_CONFLICT with current_version otherwise); Idempotency-Key makes a retry safe: the same key and body get the first answer again and change nothing.
//	@Tags			moves
//	@Accept			json
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id				path		string		true	"match id"
//	@Param			If-Match		header		string		false	"the one version the move expects: an ETag from GET, or the bare version such as 12 (not a list)"
//	@Param			Idempotency-Key	header		string		false	"1 to 200 visible ASCII characters"
//	@Param			body			body		MoveRequest	true	"the move"
//	@Success		200				{object}	MoveResponse
//	@Header			200				{string}	ETag				"the caller's view's tag after the move"
//	@Header			200				{string}	Idempotent-Replayed	"true when the answer is a stored one"
//	@Failure		400				{object}	Problem				"INVALID_REQUEST"
//	@Failure		401				{object}	Problem				"UNAUTHORIZED"
//	@Failure		404				{object}	Problem				"MATCH_NOT_FOUND"
//	@Failure		409				{object}	Problem				"MATCH_SEALED, NOT_YOUR_TURN, MATCH_FINISHED, VERSION_CONFLICT: MATCH_SEALED when the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Failure		408				{object}	Problem				"REQUEST_TIMEOUT: the body did not arrive before the server\'s read timeout"
//	@Failure		413				{object}	Problem				"PAYLOAD_TOO_LARGE"
//	@Failure		415				{object}	Problem				"UNSUPPORTED_MEDIA_TYPE"
//	@Failure		422				{object}	Problem				"TILE_NOT_IN_HAND, TILE_DOES_NOT_FIT, END_REQUIRED, MUST_LEAD_DOUBLE, MUST_PLAY, MUST_DRAW, MUST_PASS, IDEMPOTENCY_KEY_REUSED"
//	@Router			/api/v1/matches/{id}/moves [post]
func (s *server) move(c echo.Context) error {
	id, v, err := s.matchCaller(c, s.seatViewer)
	if err != nil {
		return err
	}
	req := c.Request()
	expected, err := ifMatchVersion(req)
	if err != nil {
		return err
	}
	key, err := idempotencyKey(req)
	if err != nil {
		return err
	}
	var body MoveRequest
	if err := jsonbody.Decode(c, &body); err != nil {
		return err
	}
	mv, err := body.move()
	if err != nil {
		return err
	}
	res, err := s.svc.Act(req.Context(), id, v, referee.ActRequest{
		Move: mv, ExpectedVersion: expected, IdempotencyKey: key, Encode: s.encodeMatchView,
	})
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("ETag", etag(res.Match.Version, v))
	if res.Replayed {
		h.Set("Idempotent-Replayed", "true")
	} else {
		s.metrics.Moved(mv.Action.String())
	}
	answer, err := encodeMoveResponse(res, s.encodeMatchView)
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, answer)
}

// encodeMoveResponse is a move's answer, byte for byte what c.JSON would write of its
// MoveResponse, around the view the referee encoded (and kept for the next state read).
func encodeMoveResponse(res referee.ActResult, encode func(domain.MatchView) ([]byte, error)) ([]byte, error) {
	view := res.View
	if view == nil {
		var err error
		if view, err = encode(res.Match); err != nil {
			return nil, err
		}
	}
	events, err := json.Marshal(ToEvents(res.Events))
	if err != nil {
		return nil, err
	}
	view = bytes.TrimSuffix(view, []byte("\n"))
	out := make([]byte, 0, len(`{"events":,"match":}`)+len(events)+len(view)+1)
	out = append(append(out, `{"events":`...), events...)
	out = append(append(out, `,"match":`...), view...)
	return append(out, "}\n"...), nil
}

// move checks the body's shape and turns it into the domain's command.
func (b MoveRequest) move() (domain.Move, error) {
	action, err := domain.ParseAction(b.Action)
	if err != nil {
		return domain.Move{}, err
	}
	if action != domain.ActionPlay {
		if b.Tile != nil || b.End != nil {
			return domain.Move{}, domain.Invalidf("%s takes no tile and no end", action)
		}
		return domain.Move{Action: action}, nil
	}
	if b.Tile == nil {
		return domain.Move{}, domain.Invalidf("play needs a tile, like \"tile\": \"4-6\"")
	}
	tile, err := domain.ParseTile(*b.Tile)
	if err != nil {
		return domain.Move{}, err
	}
	if b.End == nil {
		return domain.Move{Action: action, Tile: tile}, nil
	}
	end, err := domain.ParseEnd(*b.End)
	if err != nil {
		return domain.Move{}, err
	}
	return domain.Play(tile, end), nil
}

// legalMoves lists what the caller's seat may do now.
//
//	@Summary		List legal moves
//	@ID				listLegalMoves
//	@Description	The caller's legal actions now, each play with the points the play itself would score (a going-out bonus is not included). Empty when it is not the caller's turn. A tile that fits both ends is listed once per end.
//	@Tags			moves
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id	path		string	true	"match id"
//	@Success		200	{object}	LegalMovesResponse
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED"
//	@Failure		404	{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure		409	{object}	Problem	"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router			/api/v1/matches/{id}/legal-moves [get]
func (s *server) legalMoves(c echo.Context) error {
	id, v, err := s.matchCaller(c, s.seatViewer)
	if err != nil {
		return err
	}
	seat, version, moves, err := s.svc.LegalMoves(c.Request().Context(), id, v)
	if err != nil {
		return err
	}
	recordHeaders(c)
	return c.JSON(http.StatusOK, LegalMovesResponse{Seat: seat, Version: version, LegalMoves: toLegalMoves(moves)})
}

// events pages through the event log.
//
//	@Summary			List events
//	@ID					listEvents
//	@Description		The match's event log in seq order, as the caller may see it: while the match is live, other seats' tiles and the boneyard order are hidden, and the seed stays secret until match.ended.
//	@Tags				matches
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id		path		string	true	"match id"
//	@Param				after	query		int		false	"only events with seq greater than this"	minimum(0)	default(0)
//	@Param				limit	query		int		false	"page size"									minimum(1)	maximum(1000)	default(500)
//	@Success			200		{object}	EventsResponse
//	@Failure			400		{object}	Problem	"INVALID_REQUEST"
//	@Failure			401		{object}	Problem	"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404		{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure			409		{object}	Problem	"MATCH_SEALED: the match belongs to a duplicate round still being played and the caller holds none of its seats; checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router				/api/v1/matches/{id}/events [get]
func (s *server) events(c echo.Context) error {
	q, err := query(c, "after", "limit")
	if err != nil {
		return err
	}
	after, err := intParam(q, "after", 0, 0, 1<<31-1)
	if err != nil {
		return err
	}
	limit, err := intParam(q, "limit", 500, 1, referee.MaxEventsPage)
	if err != nil {
		return err
	}
	id := c.Param("id")
	v, err := s.viewer(c, id)
	if err != nil {
		return err
	}
	list, version, err := s.svc.Events(c.Request().Context(), id, v, after, limit)
	if err != nil {
		return err
	}
	recordHeaders(c)
	return c.JSON(http.StatusOK, EventsResponse{Events: ToEvents(list), Version: version})
}
