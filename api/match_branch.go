package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
)

// Play on (docs/review.md, "Play on"): a branch of a finished match from the position before
// one of its decisions, the caller in the deciding seat and bots in the others.

// createBranch plays on from a decision of a finished match.
//
//	@Summary			Play on from a decision
//	@ID					createBranch
//	@Description		Creates a branch of a finished match (docs/review.md, "Play on"): a new match, never rated, in the exact position before event step, a decision (a play, draw or pass chosen among at least two legal moves, a review decision's seq): the same hands, boneyard order and scores, dealt from the match's own seed (revealed, so the branch is seeded), the caller in the deciding seat and bots of the strategy bot in the others, no clock. Its match.created names the match, the step and the hash of the match's event step-1; its log then repeats the match's plays, draws, passes, deals and hands' ends up to the decision; its export embeds the match's events up to step-1 with their hashes, so that allfives verify checks a branch from one file. A branch of a branch works alike. With a player key the seat is bound to the key's player; without, it is anonymous (name, or "Guest"). It counts against the bots-only limit (--limit-bot-matches).
//	@Tags				matches
//	@Accept				json
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			PlayerKey
//	@x-token-optional	true
//	@Param				id		path		string				true	"match id"
//	@Param				body	body		CreateBranchRequest	true	"the decision and the bots"
//	@Success			201		{object}	BranchResponse		"the branch as the caller's seat sees it, and its token"
//	@Header				201		{string}	Location			"/api/v1/matches/{id} of the branch"
//	@Failure			400		{object}	Problem				"INVALID_REQUEST: a body that is not a CreateBranchRequest, a bot that is not a strategy, a name refused, or a step not from 1 to the match's version"
//	@Failure			401		{object}	Problem				"UNAUTHORIZED: a player key or token that is not valid"
//	@Failure			404		{object}	Problem				"MATCH_NOT_FOUND"
//	@Failure			409		{object}	Problem				"MATCH_SEALED, MATCH_NOT_FINISHED, NOT_A_DECISION: MATCH_SEALED when the match belongs to a duplicate round still being played (to its own seats too), checked before anything else, the same answer whatever the request (docs/tournaments.md); MATCH_NOT_FINISHED when the match was not played to its end; NOT_A_DECISION when event step is not a choice among at least two legal moves"
//	@Failure			408		{object}	Problem				"REQUEST_TIMEOUT: the body did not arrive before the server\'s read timeout"
//	@Failure			413		{object}	Problem				"PAYLOAD_TOO_LARGE"
//	@Failure			415		{object}	Problem				"UNSUPPORTED_MEDIA_TYPE"
//	@Failure			429		{object}	Problem				"RATE_LIMITED: this client address or player has created as many matches of bots as --limit-bot-matches allows (docs/operations.md, \"Limits\"); Retry-After says when to retry"
//	@Header				429		{integer}	Retry-After			"seconds to wait before retrying"
//	@Failure			500		{object}	Problem				"INTERNAL, or RECORD_CORRUPT: the match's stored record cannot be read or folded"
//	@Failure			503		{object}	Problem				"STORE_BUSY, STORE_UNAVAILABLE: Retry-After says when to retry"
//	@Header				503		{integer}	Retry-After			"seconds to wait before retrying"
//	@Router				/api/v1/matches/{id}/branches [post]
func (s *server) createBranch(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	id := c.Param("id")
	cred, err := bearer(c)
	if err != nil {
		return err
	}
	key := ""
	if players.IsKey(cred) {
		key = cred
	} else if _, err := s.viewer(c, id); err != nil {
		return err // a seat token of this match is welcome, as on its reads; any other is 401
	}
	var body CreateBranchRequest
	if err := jsonbody.Decode(c, &body); err != nil {
		return err
	}
	if s.limits.botMatches != nil {
		if err := s.limits.botMatches.admit(c, s.keyPlayer(c.Request().Context(), key)); err != nil {
			return err
		}
	}
	created, err := s.svc.Branch(c.Request().Context(), referee.BranchRequest{Parent: id, Step: body.Step, Bot: body.Bot, Key: key, Name: body.Name})
	if errors.Is(err, referee.ErrBotsBusy) {
		return &problem.Error{Code: problem.CodeUnavailable, Detail: referee.ErrBotsBusy.Error(), RetryAfter: referee.BotsRetryAfter}
	}
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderLocation, "/api/v1/matches/"+created.Match.ID)
	h.Set("Cache-Control", "no-store") // the token is a secret: no cache may keep it
	return c.JSON(http.StatusCreated, BranchResponse{Match: ToMatchView(created.Match), Token: created.Tokens[0].Token})
}
