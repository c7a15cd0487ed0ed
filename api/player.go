package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
)

// createPlayer makes a lasting player.
//
//	@Summary		Create a player
//	@ID				createPlayer
//	@Description	Makes a player who lasts beyond one match, and answers it with its key, shown only here: the server keeps only the key's SHA-256. Send the key as Authorization: Bearer followed by the key to act as the player. The name follows the rules of a seat's name (a name mixing scripts beyond Unicode's moderately restrictive level, such as "Вob" with a Cyrillic В, is 400 INVALID_REQUEST), and no two players go by one name ignoring case and width ("Ada", "ada" and "ＡＤＡ" are one name) or by names that look alike (UTS #39 confusables: "Bob", "ВОВ" and "Βob" are one name); names beginning with bot-, or looking as if they did, are the bots': 409 NAME_TAKEN. "program": true makes the player a program (an engine, docs/engine.md): its profile, seats, ratings and leaderboard rows then carry "program": true.
//	@Tags			players
//	@Accept			json
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			body	body		CreatePlayerRequest	true	"the player's name"
//	@Success		201		{object}	CreatePlayerResponse
//	@Header			201		{string}	Location	"/api/v1/players/{id}"
//	@Failure		400		{object}	Problem		"INVALID_REQUEST"
//	@Failure		408		{object}	Problem		"REQUEST_TIMEOUT: the body did not arrive before the server\'s read timeout"
//	@Failure		409		{object}	Problem		"NAME_TAKEN: another player goes by that name, ignoring case and width"
//	@Failure		413		{object}	Problem		"PAYLOAD_TOO_LARGE"
//	@Failure		415		{object}	Problem		"UNSUPPORTED_MEDIA_TYPE"
//	@Failure		429		{object}	Problem		"RATE_LIMITED: this client address created as many players as --limit-players allows (docs/operations.md, \"Limits\"), or over --rate-limit; Retry-After says when to retry"
//	@Header			429		{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/players [post]
func (s *server) createPlayer(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	var body CreatePlayerRequest
	if err := jsonbody.Decode(c, &body); err != nil {
		return err
	}
	if err := s.limits.players.admit(c, ""); err != nil {
		return err
	}
	created, err := s.players.CreateAs(c.Request().Context(), body.Name, body.Program)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderLocation, "/api/v1/players/"+created.Player.ID)
	h.Set("Cache-Control", "no-store") // the key is a secret: no cache may keep it
	return c.JSON(http.StatusCreated, CreatePlayerResponse{Player: toPlayerView(created.Player), Key: created.Key})
}

// getCurrentPlayer answers the player the key belongs to.
//
//	@Summary		Get the caller's player
//	@ID				getCurrentPlayer
//	@Description	The player whose key the request carries. A key that was rotated away, or never issued, is 401 UNAUTHORIZED.
//	@Tags			players
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Success		200	{object}	PlayerView
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED: no key, or not a valid one"
//	@Router			/api/v1/players/me [get]
func (s *server) getCurrentPlayer(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	p, err := s.players.Authenticate(c.Request().Context(), key)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Authorization")
	return c.JSON(http.StatusOK, toPlayerView(p))
}

// rotatePlayerKey replaces the caller's key.
//
//	@Summary		Rotate the caller's key
//	@ID				rotatePlayerKey
//	@Description	Replaces the key the request carries with a new one, shown only here. The old key is refused (401) from the moment this answers, on every instance of the server. The seat tokens issued to the player's seats end with it (401, and the streams opened with them or with tickets bought with them end): the player plays those seats with the new key, which stands for each of them. Of two rotations sent with one key, one gets the new key and the other 401.
//	@Tags			players
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Success		200	{object}	PlayerKeyResponse
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		401	{object}	Problem	"UNAUTHORIZED: no key, or not a valid one"
//	@Router			/api/v1/players/me/key [post]
func (s *server) rotatePlayerKey(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	rotated, err := s.players.RotateKey(c.Request().Context(), key)
	if err != nil {
		return err
	}
	if s.svc != nil {
		// The store revoked the tokens of the player's seats with the key: this instance's
		// copies of those matches still hold them (others hear of it from the store).
		s.svc.ForgetSeatsOf(rotated.Player.ID)
	}
	if s.seeks != nil {
		// A seek lasts no longer than the key it was made with (docs/matchmaking.md).
		if err := s.seeks.EndPlayer(c.Request().Context(), rotated.Player.ID); err != nil {
			s.log.Warn("the rotated key's seeks were not cancelled", "player", rotated.Player.ID, "err", err)
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, PlayerKeyResponse{Key: rotated.Key})
}

// getPlayer answers a player's public profile.
//
//	@Summary		Get a player's profile
//	@ID				getPlayer
//	@Description	The public profile of a player: its id, name and when it was made. Anyone may read it; it never shows the key.
//	@Tags			players
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			id	path		string	true	"player id"
//	@Success		200	{object}	PlayerProfile
//	@Failure		400	{object}	Problem	"INVALID_REQUEST"
//	@Failure		404	{object}	Problem	"PLAYER_NOT_FOUND"
//	@Router			/api/v1/players/{id} [get]
func (s *server) getPlayer(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	prof, err := s.players.Profile(c.Request().Context(), clip(c.Param("id")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toPlayerProfile(prof))
}

// findPlayer finds a player by name.
//
//	@Summary		Find a player by name
//	@ID				getPlayerByName
//	@Description	The player who goes by the name, compared as names are kept unique: ignoring case and width ("ada" and "ＡＤＡ" find "Ada"). Anyone may ask, as anyone may read a profile, so that a player can be challenged by name. No player by that name (or a name no player could have) is 404 PLAYER_NOT_FOUND.
//	@Tags			players
//	@Produce		json
//	@Produce		application/problem+json
//	@Param			name	query		string	true	"the player's name"
//	@Success		200		{object}	FoundPlayerResponse
//	@Failure		400		{object}	Problem	"INVALID_REQUEST: no name"
//	@Failure		404		{object}	Problem	"PLAYER_NOT_FOUND"
//	@Router			/api/v1/players [get]
func (s *server) findPlayer(c echo.Context) error {
	q, err := query(c, "name")
	if err != nil {
		return err
	}
	name := q.Get("name")
	if strings.TrimSpace(name) == "" {
		return domain.Invalidf("name is required: GET /api/v1/players?name=Ada")
	}
	if len(name) > 256 {
		return domain.Invalidf("name is longer than any player's")
	}
	p, err := s.players.ByName(c.Request().Context(), name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, FoundPlayerResponse{Player: toPlayerView(p)})
}

// playerKey is the key of an "Authorization: Bearer <key>" header. No header is
// players.ErrNoKey; two headers, or one that is not a bearer credential, are refused in the
// words of a key, never echoing what was sent.
func playerKey(c echo.Context) (string, error) {
	vals := c.Request().Header.Values(echo.HeaderAuthorization)
	switch len(vals) {
	case 0:
		return "", players.ErrNoKey
	case 1:
	default:
		return "", &problem.Error{Code: domain.CodeUnauthorized, Detail: "send one Authorization header: Bearer <player key>"}
	}
	scheme, key, ok := strings.Cut(vals[0], " ")
	key = strings.TrimSpace(key)
	if !ok || !strings.EqualFold(scheme, "Bearer") || key == "" {
		return "", &problem.Error{Code: domain.CodeUnauthorized, Detail: "send Authorization: Bearer <player key>"}
	}
	return key, nil
}
