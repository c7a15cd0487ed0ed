package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
)

// RematchResponse is the answer to a rematch: the next match as the caller's seat sees it and
// the caller's token in it, shown only to the call that took the seat (its offer or its
// acceptance; null after).
type RematchResponse struct {
	Match MatchView `json:"match"`
	// Token is the caller's seat token in the next match: drawn by the call that takes the
	// seat (the offer, or the seat's acceptance), shown only then; null on later calls (a bound
	// seat's player may use its key).
	Token *string `json:"token" extensions:"x-nullable"`
}

// rematch asks for the next match of a finished one.
//
//	@Summary		Rematch
//	@ID				createRematch
//	@Description	By a seat holder (its token, or its player's key) of a finished match. The first call offers the next match, with the same seats, target, partnerships, clock and rated, and a new secret seed: it waits (status waiting) with the caller's seat taken (its token in this answer), bots seated, and every other human seat reserved for its holder here (reserved_for: the player's id and name, or the anonymous seat's name), until each accepts by calling this route on this match with its own old token or key (its answer: its seat and new token, shown only then). The last acceptance deals. An offer not accepted within the server's --rematch-ttl (offer_expires_at) is cancelled (offer_expired); a reserved seat's holder may decline it instead (POST .../seats/{seat}/decline on the next match). A rematch with no other human is dealt at once. Later calls by a seat that has accepted answer the same match with token null. The finished match's view and history item carry next_match_id. A finished match has one offer: once it is cancelled, 409 REMATCH_CANCELLED.
//	@Tags			matches
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		SeatToken
//	@Param			id	path		string	true	"the finished match's id"
//	@Success		200	{object}	RematchResponse
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED: not a seat of this match"
//	@Failure		404	{object}	Problem	"MATCH_NOT_FOUND"
//	@Failure		409	{object}	Problem	"MATCH_SEALED, MATCH_NOT_FINISHED, REMATCH_CANCELLED: MATCH_SEALED when the match belongs to a duplicate round still being played (to its own seats too: a rematch waits for the round to end); checked before anything else, the same answer whatever the request (docs/tournaments.md)"
//	@Router			/api/v1/matches/{id}/rematch [post]
func (s *server) rematch(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	token, err := bearer(c)
	if err != nil {
		return err
	}
	if token == "" {
		return domain.Detailf(domain.ErrUnauthorized, "send Authorization: Bearer <seat token or player key> of a seat of the finished match")
	}
	out, err := s.svc.Rematch(c.Request().Context(), c.Param("id"), token)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store") // the token is a secret
	res := RematchResponse{Match: ToMatchView(out.Match)}
	if out.Token != "" {
		res.Token = &out.Token
	}
	return c.JSON(http.StatusOK, res)
}

// withNextMatch adds next_match_id to a state read's body, and to its tag, once the match
// has a rematch: the link is kept beside the log, so the view of the version does not hold it.
func (s *server) withNextMatch(c echo.Context, id string, body []byte, tag string) ([]byte, string, error) {
	next, err := s.svc.NextMatchID(c.Request().Context(), id)
	if err != nil || next == "" {
		return body, tag, err
	}
	field, err := json.Marshal(next)
	if err != nil {
		return nil, "", err
	}
	end := bytes.LastIndexByte(body, '}')
	if end < 0 {
		return body, tag, nil
	}
	out := append(append(append([]byte(nil), body[:end]...), `,"next_match_id":`...), field...)
	out = append(out, body[end:]...)
	return out, strings.TrimSuffix(tag, `"`) + `-r"`, nil
}
