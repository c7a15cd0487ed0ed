package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
)

// createSeek puts the caller's player in the pool of Play now.
//
//	@Summary		Seek a match (Play now)
//	@ID				createSeek
//	@Description	Puts the player of the key in the pool: the server pairs it with players of close rating in the format who seek the same (rated or not, clock, target), the rating window widening as it waits, and, after --seek-bot-after (15 s by default) with no one, seats the bots whose ratings are nearest its own (docs/matchmaking.md). The match is created with every seat bound to its player and dealt at once; the seek then reads matched, with match and seat, and the player's stream sends matched. A player has one live seek per format (409 ALREADY_SEEKING); a player seated in a live match may still seek. A seek that finds nothing expires after --seek-ttl; a rotation of the key cancels it.
//	@Tags			seeks
//	@Accept			json
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			body	body		CreateSeekRequest	true	"the match sought"
//	@Success		201		{object}	SeekResponse
//	@Header			201		{string}	Location	"/api/v1/seeks/{id}"
//	@Failure		400		{object}	Problem		"INVALID_REQUEST"
//	@Failure		401		{object}	Problem		"UNAUTHORIZED: no key, or not a valid one"
//	@Failure		409		{object}	Problem		"ALREADY_SEEKING: the player has a live seek in this format"
//	@Failure		413		{object}	Problem		"PAYLOAD_TOO_LARGE"
//	@Failure		415		{object}	Problem		"UNSUPPORTED_MEDIA_TYPE"
//	@Failure		429		{object}	Problem		"RATE_LIMITED: this client address or player made as many seeks as --limit-seeks allows (docs/operations.md, \"Limits\"), or over --rate-limit; Retry-After says when to retry"
//	@Header			429		{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/seeks [post]
func (s *server) createSeek(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	var body CreateSeekRequest
	if err := jsonbody.Decode(c, &body); err != nil {
		return err
	}
	if s.limits.seeks != nil {
		if err := s.limits.seeks.admit(c, s.keyPlayer(c.Request().Context(), key)); err != nil {
			return err
		}
	}
	rec, err := s.seeks.Create(c.Request().Context(), key, seekRequest(body))
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderLocation, "/api/v1/seeks/"+rec.ID)
	h.Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, SeekResponse{Seek: toSeekView(rec)})
}

// getSeek answers one of the caller's seeks.
//
//	@Summary		Get a seek
//	@ID				getSeek
//	@Description	The seek as it stands: searching, pairing (for a moment), matched (with match and seat: play it with the key), cancelled or expired. Only its player reads it: another player's seek is 404 SEEK_NOT_FOUND, as one that does not exist.
//	@Tags			seeks
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id	path		string	true	"seek id"
//	@Success		200	{object}	SeekResponse
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED: no key, or not a valid one"
//	@Failure		404	{object}	Problem	"SEEK_NOT_FOUND: no seek of this player has that id"
//	@Router			/api/v1/seeks/{id} [get]
func (s *server) getSeek(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	rec, err := s.seeks.Get(c.Request().Context(), key, clip(c.Param("id")))
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Authorization")
	return c.JSON(http.StatusOK, SeekResponse{Seek: toSeekView(rec)})
}

// cancelSeek cancels one of the caller's seeks.
//
//	@Summary		Cancel a seek
//	@ID				cancelSeek
//	@Description	Takes the seek out of the pool and answers it as it ends up: cancelled; or, when the matcher paired it first, pairing or matched (with match and seat), since the match was made with the player's consent, its seek. A seek already ended is answered as it is. Another player's seek is 404 SEEK_NOT_FOUND.
//	@Tags			seeks
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id	path		string	true	"seek id"
//	@Success		200	{object}	SeekResponse
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED: no key, or not a valid one"
//	@Failure		404	{object}	Problem	"SEEK_NOT_FOUND: no seek of this player has that id"
//	@Router			/api/v1/seeks/{id} [delete]
func (s *server) cancelSeek(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	rec, err := s.seeks.Cancel(c.Request().Context(), key, clip(c.Param("id")))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, SeekResponse{Seek: toSeekView(rec)})
}
