package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/puzzles"
)

// Puzzles (docs/puzzles.md): decisions of reviewed matches that lost clearly, offered one at
// a time near the solver's puzzle rating, answered with the review's own values.

// optionalSolver is the player of the request's key, "" without an Authorization header; a
// key sent is checked, never ignored.
func (s *server) optionalSolver(c echo.Context) (string, error) {
	if len(c.Request().Header.Values(echo.HeaderAuthorization)) == 0 {
		return "", nil
	}
	key, err := playerKey(c)
	if err != nil {
		return "", err
	}
	p, err := s.players.Authenticate(c.Request().Context(), key)
	if err != nil {
		return "", err
	}
	return p.ID, nil
}

// nextPuzzle answers a puzzle for the caller.
//
//	@Summary			Get a puzzle
//	@ID					getNextPuzzle
//	@Description		A puzzle (docs/puzzles.md): a decision of a reviewed match where the move played lost clearly and one move stood out. The position is what the deciding seat saw then, and nothing else: its own tiles, the line, the scores, the target, the other hands' sizes, the boneyard's size and the hand's events so far (plays, draws as counts, passes); not the source match, which the attempt's answer tells. With a player key: one near the caller's puzzle rating, never from the caller's own matches, never one it attempted. Without: any, near a new solver's rating.
//	@Tags				puzzles
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			PlayerKey
//	@x-token-optional	true
//	@Success			200	{object}	NextPuzzleResponse
//	@Failure			400	{object}	Problem		"INVALID_REQUEST"
//	@Failure			401	{object}	Problem		"UNAUTHORIZED: a key that is no player's"
//	@Failure			404	{object}	Problem		"NO_PUZZLE: none is left for the caller"
//	@Failure			503	{object}	Problem		"UNAVAILABLE, or STORE_BUSY; Retry-After says when to retry"
//	@Header				503	{integer}	Retry-After	"seconds to wait before retrying"
//	@Router				/api/v1/puzzles/next [get]
func (s *server) nextPuzzle(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	who, err := s.optionalSolver(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p, err := s.puzzles.Next(ctx, who)
	if err != nil {
		return err
	}
	out := NextPuzzleResponse{Puzzle: toPuzzle(p)}
	if who != "" {
		if sv, ok, err := s.puzzles.Rating(ctx, who); err != nil {
			return err
		} else if ok {
			out.Solver = toPuzzleSolver(sv)
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// attemptPuzzle answers an attempt at a puzzle.
//
//	@Summary			Attempt a puzzle
//	@ID					createPuzzleAttempt
//	@Description		Tries a move at a puzzle (docs/puzzles.md): whether it is right (worth as much as the best by the review's values), the best move, the move the source's seat played and what it lost, every option with its value for the seat's side, and the source match and step, which only an attempt tells. With a player key, the caller's first attempt at a puzzle that is not from its own matches is rated: the caller's puzzle rating and the puzzle's move (the project's rating model, apart from the ratings of play); later attempts are answered the same way and rate nothing.
//	@Tags				puzzles
//	@Accept				json
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			PlayerKey
//	@x-token-optional	true
//	@Param				id		path		string			true	"puzzle id"
//	@Param				body	body		AttemptRequest	true	"the move tried"
//	@Success			200		{object}	AttemptResponse
//	@Failure			400		{object}	Problem		"INVALID_REQUEST"
//	@Failure			401		{object}	Problem		"UNAUTHORIZED: a key that is no player's"
//	@Failure			404		{object}	Problem		"PUZZLE_NOT_FOUND"
//	@Failure			422		{object}	Problem		"NOT_AN_OPTION: the move is not one of the puzzle's legal moves"
//	@Failure			429		{object}	Problem		"RATE_LIMITED: this client address or player has made as many attempts as --limit-puzzle-attempts allows (docs/operations.md, \"Limits\"); Retry-After says when to retry"
//	@Header				429		{integer}	Retry-After	"seconds to wait before retrying"
//	@Failure			503		{object}	Problem		"UNAVAILABLE, or STORE_BUSY; Retry-After says when to retry"
//	@Header				503		{integer}	Retry-After	"seconds to wait before retrying"
//	@Router				/api/v1/puzzles/{id}/attempts [post]
func (s *server) attemptPuzzle(c echo.Context) error {
	if _, err := query(c); err != nil {
		return err
	}
	who, err := s.optionalSolver(c)
	if err != nil {
		return err
	}
	var body AttemptRequest
	if err := jsonbody.Decode(c, &body); err != nil {
		return err
	}
	if body.Move == nil {
		return domain.Invalidf("move is required: {\"move\": {\"action\": \"play\", \"tile\": \"4-6\", \"end\": \"left\"}}")
	}
	if err := s.limits.attempts.admit(c, who); err != nil {
		return err
	}
	a, err := s.puzzles.Attempt(c.Request().Context(), c.Param("id"), who, puzzles.Move{Action: body.Move.Action, Tile: body.Move.Tile, End: body.Move.End})
	if err != nil {
		return err
	}
	p := a.Puzzle
	out := AttemptResponse{
		Correct: a.Correct, Move: toPuzzleMove(a.Move), Best: toPuzzleMove(p.Best), Played: toPuzzleMove(p.Played), Loss: p.Loss,
		Options: toPuzzleOptions(p), Source: PuzzleSource{Match: p.Match, Step: p.Step}, Rated: a.Rated, Rating: puzzles.Displayed(p.Rating),
	}
	if a.HasScore {
		out.Solver = toPuzzleSolver(a.Solver)
	}
	return c.JSON(http.StatusOK, out)
}

// listPlayerPuzzles answers a player's own puzzles.
//
//	@Summary		List a player's own puzzles
//	@ID				listPlayerPuzzles
//	@Description	The puzzles made of the player's own decisions (docs/puzzles.md), "your mistakes", newest first, each with its answer and its source match: solved by others or not, never offered to the player itself to be rated. Only with that player's own key: another key is 403 NOT_YOUR_PUZZLES, none 401.
//	@Tags			puzzles
//	@Produce		json
//	@Produce		application/problem+json
//	@Security		PlayerKey
//	@Param			id		path		string	true	"player id"
//	@Param			limit	query		int		false	"how many"	minimum(1)	maximum(100)	default(20)
//	@Success		200		{object}	PlayerPuzzlesResponse
//	@Failure		400		{object}	Problem		"INVALID_REQUEST"
//	@Failure		401		{object}	Problem		"UNAUTHORIZED: no key, or one that is no player's"
//	@Failure		403		{object}	Problem		"NOT_YOUR_PUZZLES: the key is another player's"
//	@Failure		503		{object}	Problem		"UNAVAILABLE, or STORE_BUSY; Retry-After says when to retry"
//	@Header			503		{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/players/{id}/puzzles [get]
func (s *server) listPlayerPuzzles(c echo.Context) error {
	q, err := query(c, "limit")
	if err != nil {
		return err
	}
	limit, err := intParam(q, "limit", 20, 1, 100)
	if err != nil {
		return err
	}
	key, err := playerKey(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p, err := s.players.Authenticate(ctx, key)
	if err != nil {
		return err
	}
	ps, err := s.puzzles.OfPlayer(ctx, p.ID, clip(c.Param("id")), limit)
	if err != nil {
		return err
	}
	out := PlayerPuzzlesResponse{Puzzles: make([]OwnPuzzle, 0, len(ps))}
	for _, pz := range ps {
		out.Puzzles = append(out.Puzzles, toOwnPuzzle(pz))
	}
	c.Response().Header().Set("Cache-Control", "private, no-store")
	return c.JSON(http.StatusOK, out)
}
