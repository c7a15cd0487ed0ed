package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// PlayerMatchItem is one of a player's matches: a history item and the player's seat.
type PlayerMatchItem struct {
	HistoryItem
	// Seat is the seat the player holds, or is challenged to take (an open seat reserved for it).
	Seat int `json:"seat"`
}

// PlayerMatchesResponse is one page of a player's matches, newest first.
type PlayerMatchesResponse struct {
	Matches []PlayerMatchItem `json:"matches"`
	// NextCursor fetches the next page; null on the last page.
	NextCursor *string `json:"next_cursor" extensions:"x-nullable"`
}

// listPlayerMatches pages through a player's matches.
//
//	@Summary			List a player's matches
//	@ID					listPlayerMatches
//	@Description		The matches where the player holds a seat (or is challenged to one), newest first, as history items with the player's seat. Anyone may list them, as anyone may read a match, except a sealed match (a duplicate round still being played, docs/tournaments.md), which only the player's own key lists, as its seat reads it. A key sent is checked: one that is not a valid player key is 401. turn=me keeps the matches in progress where it is the player's turn, and only with the player's own key. Pass next_cursor back as cursor for the next page.
//	@Tags				players
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			PlayerKey
//	@x-token-optional	true
//	@Param				id		path		string	true	"player id"
//	@Param				status	query		string	false	"only matches with this status"														Enums(waiting, in_progress, finished, expired, cancelled)
//	@Param				turn	query		string	false	"me: only the matches where it is the player's turn (the player's own key only)"	Enums(me)
//	@Param				limit	query		int		false	"page size"																			minimum(1)	maximum(100)	default(20)
//	@Param				cursor	query		string	false	"next_cursor of the previous page"
//	@Success			200		{object}	PlayerMatchesResponse
//	@Failure			400		{object}	Problem	"INVALID_REQUEST"
//	@Failure			401		{object}	Problem	"UNAUTHORIZED: turn=me without the player's own key, or an Authorization that is not a valid player key"
//	@Failure			404		{object}	Problem	"PLAYER_NOT_FOUND"
//	@Router				/api/v1/players/{id}/matches [get]
func (s *server) listPlayerMatches(c echo.Context) error {
	q, err := query(c, "status", "turn", "limit", "cursor")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	pq := referee.PlayerMatchQuery{Player: clip(c.Param("id")), Status: domain.Status(q.Get("status")), Cursor: q.Get("cursor")}
	switch pq.Status {
	case domain.StatusWaiting, domain.StatusInProgress, domain.StatusFinished, domain.StatusExpired, domain.StatusCancelled:
	default:
		if q.Has("status") {
			return domain.Invalidf("status must be waiting, in_progress, finished, expired or cancelled, got %q", clip(q.Get("status")))
		}
	}
	if q.Has("cursor") && pq.Cursor == "" {
		return domain.Invalidf("cursor must not be empty; leave it out for the first page")
	}
	if pq.Limit, err = intParam(q, "limit", 20, 1, 100); err != nil {
		return err
	}
	if q.Has("turn") && q.Get("turn") != "me" {
		return domain.Invalidf("turn must be me, got %q", clip(q.Get("turn")))
	}
	// A key sent is checked, never ignored: the player's own lists its sealed matches too.
	who := ""
	if q.Has("turn") || len(c.Request().Header.Values(echo.HeaderAuthorization)) > 0 {
		key, err := playerKey(c)
		if err != nil {
			return err
		}
		p, err := s.players.Authenticate(ctx, key)
		if err != nil {
			return err
		}
		who = p.ID
	}
	pq.Own = who == pq.Player
	// Where it is a player's turn says when it is away: for the player alone.
	if q.Has("turn") && !pq.Own {
		return domain.Detailf(domain.ErrUnauthorized, "turn=me lists the caller's own turns: send it to /api/v1/players/%s/matches", who)
	}
	pq.Turn = q.Has("turn")
	c.Response().Header().Set("Vary", "Authorization")
	if pq.Own {
		c.Response().Header().Set("Cache-Control", "no-store")
	}
	if _, err := s.players.Profile(ctx, pq.Player); err != nil {
		return err
	}
	page, err := s.svc.PlayerMatches(ctx, pq)
	if err != nil {
		return err
	}
	out := PlayerMatchesResponse{Matches: make([]PlayerMatchItem, len(page.Matches))}
	for i, m := range page.Matches {
		out.Matches[i] = PlayerMatchItem{HistoryItem: toHistoryItem(m.HistoryItem), Seat: m.Seat}
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	return c.JSON(http.StatusOK, out)
}
