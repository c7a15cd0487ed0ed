package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
)

// Explore (docs/review.md, "Explore"): the options of one decision of a finished match with
// the review's own values, from the stored review when there is one, else computed.

// exploreDecision answers one decision's options.
//
//	@Summary			Explore a decision
//	@ID					getAnalysis
//	@Description		The options of the decision that event step of a finished match made (docs/review.md, "Explore"): every legal move its seat had, valued by the review's judge from what the seat knew then (the review's own candidate values), the move played and the review's best marked. A decision is a play, draw or pass chosen among at least two legal moves, exactly the review's decisions; any other event is 409 NOT_A_DECISION. Read from the match's stored review when it is done (no review is queued), else computed on the request's path through a bounded number of places: 503 when as many wait as the review queue holds, 429 when this client has --max-running-reviews being computed.
//	@Tags				review
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id		path		string		true	"match id"
//	@Param				step	query		int			true	"the seq of the event the decision made (a review decision's seq)"	minimum(2)
//	@Success			200		{object}	Analysis	"the decision's options"
//	@Failure			400		{object}	Problem		"INVALID_REQUEST: step missing, not an integer, or not from 1 to the match's version"
//	@Failure			401		{object}	Problem		"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404		{object}	Problem		"MATCH_NOT_FOUND"
//	@Failure			409		{object}	Problem		"MATCH_SEALED, MATCH_NOT_FINISHED, NOT_A_DECISION: MATCH_SEALED when the match belongs to a duplicate round still being played (to its own seats too), checked before anything else, the same answer whatever the request (docs/tournaments.md); MATCH_NOT_FINISHED when the match was not played to its end, checked before the step; NOT_A_DECISION when event step is not a choice among at least two legal moves"
//	@Failure			500		{object}	Problem		"INTERNAL, or RECORD_CORRUPT: the match's stored record cannot be read, folded or judged"
//	@Failure			503		{object}	Problem		"UNAVAILABLE, or STORE_BUSY: as many explorations wait to be computed as the review queue holds, or the store stayed locked beyond its timeout; Retry-After says when to retry"
//	@Header				503		{integer}	Retry-After	"seconds to wait before retrying"
//	@Failure			429		{object}	Problem		"RATE_LIMITED: this client address or player has --max-running-reviews explorations being computed (docs/operations.md, \"Limits\"); Retry-After says when to retry"
//	@Header				429		{integer}	Retry-After	"seconds to wait before retrying"
//	@Router				/api/v1/matches/{id}/analysis [get]
func (s *server) exploreDecision(c echo.Context) error {
	q, err := query(c, "step")
	if err != nil {
		return err
	}
	id := c.Param("id")
	if _, err := s.viewer(c, id); err != nil {
		return err
	}
	if s.reviews == nil {
		return errNoReviews
	}
	ctx := c.Request().Context()
	step, bad := stepOf(q.Get("step"), q.Has("step"))
	if bad != nil {
		// The match's state before the step's: a live match says so whatever the query.
		if err := s.reviews.Finished(ctx, id); err != nil {
			return err
		}
		return bad
	}
	x, err := s.reviews.Explore(ctx, id, step, s.reviewAsker(c))
	if err != nil {
		return reviewProblem(err)
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.JSON(http.StatusOK, toAnalysis(x))
}

// stepOf reads the step query parameter, or says why it is not one.
func stepOf(text string, present bool) (int, error) {
	if !present {
		return 0, domain.Invalidf("step is required: the seq of the event a decision made")
	}
	step, err := strconv.Atoi(text)
	if err != nil {
		return 0, domain.Invalidf("step must be an integer from 1 to the match's version, got %q", clip(text))
	}
	return step, nil
}

// toAnalysis is the wire form of a decision's options.
func toAnalysis(x analysis.Exploration) Analysis {
	out := Analysis{Step: x.Step, Seat: x.Seat, Options: make([]AnalysisOption, len(x.Options))}
	for i, o := range x.Options {
		out.Options[i] = AnalysisOption{
			Move:  ReviewMove{Action: o.Move.Action, Tile: o.Move.Tile, End: o.Move.End},
			Value: o.Value, Played: o.Played, Best: o.Best,
		}
	}
	return out
}
