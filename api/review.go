package api

import (
	"bytes"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/problem"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/quota"
	"github.com/allfives/allfives/domain/app/reviews"
)

// The review of a finished match (docs/review.md, "API"): asked for with POST, computed off
// the request path by the reviewer's workers, stored once per match and method, and answered
// from the store, byte for byte the same on every instance.

// reviewPath is the review's URL, the Location of an answer that is not the review yet.
func reviewPath(id string) string { return "/api/v1/matches/" + id + "/review" }

// requestReview asks for a finished match's review.
//
//	@Summary			Ask for a match's review
//	@ID					createReview
//	@Description		Asks for the review of a finished match (docs/review.md): every decision where a seat had a choice valued move by move from what the seat knew then, each seat's accuracy, mean loss and classes, and each side's result split into luck and skill against a duplicate par. The review is computed once per match and method, off the request path, and stored: 202 with {"status":"running"} and a Location to GET while it is queued or computed (asking again changes nothing: one job however many ask), 200 with the review itself when it is done already. A live match cannot be reviewed (409 MATCH_NOT_FINISHED): its hands and seed are secret. When as many reviews wait as the queue holds, 503 UNAVAILABLE with Retry-After.
//	@Tags				review
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id	path		string			true	"match id"
//	@Success			200	{object}	Review			"the review was done already: the stored answer"
//	@Success			202	{object}	ReviewRunning	"the review is queued or being computed; GET the Location until it is done"
//	@Header				200	{string}	Location		"/api/v1/matches/{id}/review"
//	@Header				202	{string}	Location		"/api/v1/matches/{id}/review"
//	@Failure			400	{object}	Problem			"INVALID_REQUEST"
//	@Failure			401	{object}	Problem			"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404	{object}	Problem			"MATCH_NOT_FOUND"
//	@Failure			409	{object}	Problem			"MATCH_SEALED, MATCH_NOT_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played (to its own seats too: its review waits for the round to end); checked before anything else, the same answer whatever the request (docs/tournaments.md); MATCH_NOT_FINISHED when the match was not played to its end (live, waiting for its seats, expired or cancelled), and nothing is queued"
//	@Failure			500	{object}	Problem			"INTERNAL, or RECORD_CORRUPT: the match's stored record cannot be read, folded or reviewed (its audit says where)"
//	@Failure			503	{object}	Problem			"UNAVAILABLE, or STORE_BUSY: the review queue is full, or the store stayed locked beyond its timeout; Retry-After says when to retry"
//	@Header				503	{integer}	Retry-After		"seconds to wait before retrying"
//	@Failure			429	{object}	Problem			"RATE_LIMITED: this client address or player has --max-running-reviews reviews queued or being computed, or asked for as many as --limit-reviews allows (docs/operations.md, \"Limits\"); only a review the server would queue counts; Retry-After says when to retry"
//	@Header				429	{integer}	Retry-After		"seconds to wait before retrying"
//	@Router				/api/v1/matches/{id}/review [post]
func (s *server) requestReview(c echo.Context) error {
	id, _, err := s.matchCaller(c, s.viewer)
	if err != nil {
		return err
	}
	if s.reviews == nil {
		return errNoReviews
	}
	ans, err := s.reviews.RequestBy(c.Request().Context(), id, s.reviewAsker(c))
	if err != nil {
		return reviewProblem(err)
	}
	c.Response().Header().Set(echo.HeaderLocation, reviewPath(id))
	return answerReview(c, ans)
}

// getReview answers a match's review as it stands.
//
//	@Summary			Get a match's review
//	@ID					getReview
//	@Description		The review of a finished match asked for with POST (docs/review.md): 200 with the review once it is done, the same bytes on every call and every instance; 202 with {"status":"running"} while it is queued or computed; 404 REVIEW_NOT_FOUND when none was asked for. A review left running by a server that stopped is queued again by asking, with this GET or the POST.
//	@Tags				review
//	@Produce			json
//	@Produce			application/problem+json
//	@Security			SeatToken
//	@x-token-optional	true
//	@Param				id	path		string			true	"match id"
//	@Success			200	{object}	Review			"the review"
//	@Success			202	{object}	ReviewRunning	"the review is queued or being computed; ask again shortly"
//	@Header				202	{string}	Location		"/api/v1/matches/{id}/review"
//	@Failure			400	{object}	Problem			"INVALID_REQUEST"
//	@Failure			401	{object}	Problem			"UNAUTHORIZED: a token that is not this match's"
//	@Failure			404	{object}	Problem			"MATCH_NOT_FOUND, REVIEW_NOT_FOUND: no such match, or no review of it was asked for (POST asks)"
//	@Failure			409	{object}	Problem			"MATCH_SEALED, MATCH_NOT_FINISHED: MATCH_SEALED when the match belongs to a duplicate round still being played (to its own seats too: its review waits for the round to end); checked before anything else, the same answer whatever the request (docs/tournaments.md); MATCH_NOT_FINISHED when the match was not played to its end (live, waiting for its seats, expired or cancelled), and nothing is queued"
//	@Failure			500	{object}	Problem			"INTERNAL, or RECORD_CORRUPT: the match's stored record cannot be read, folded or reviewed (its audit says where)"
//	@Failure			503	{object}	Problem			"UNAVAILABLE, or STORE_BUSY: a review left running had to be queued again and the queue is full, or the store stayed locked beyond its timeout; Retry-After says when to retry"
//	@Header				503	{integer}	Retry-After		"seconds to wait before retrying"
//	@Failure			429	{object}	Problem			"RATE_LIMITED: this client address or player has --max-running-reviews reviews queued or being computed, or asked for as many as --limit-reviews allows (docs/operations.md, \"Limits\"); only a review the server would queue counts; Retry-After says when to retry"
//	@Header				429	{integer}	Retry-After		"seconds to wait before retrying"
//	@Router				/api/v1/matches/{id}/review [get]
func (s *server) getReview(c echo.Context) error {
	id, _, err := s.matchCaller(c, s.viewer)
	if err != nil {
		return err
	}
	if s.reviews == nil {
		return errNoReviews
	}
	ans, err := s.reviews.GetBy(c.Request().Context(), id, s.reviewAsker(c))
	if err != nil {
		return reviewProblem(err)
	}
	if ans.Status != reviews.StatusDone {
		c.Response().Header().Set(echo.HeaderLocation, reviewPath(id))
	}
	return answerReview(c, ans)
}

// answerReview writes a done review's stored bytes as they are, or the running status.
func answerReview(c echo.Context, ans reviews.Answer) error {
	// The same for every caller: a finished match shows everything to everyone.
	c.Response().Header().Set("Cache-Control", "no-cache")
	if ans.Status == reviews.StatusDone {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, ans.Result)
	}
	return c.JSON(http.StatusAccepted, ReviewRunning{Status: string(reviews.StatusRunning)})
}

// errNoReviews answers a server wired without a reviewer (tools that serve no reviews).
var errNoReviews = &problem.Error{Code: problem.CodeUnavailable, Detail: "this server computes no reviews"}

// reviewProblem words the reviewer's own refusals; the domain's errors pass as they are.
func reviewProblem(err error) error {
	switch {
	case errors.Is(err, reviews.ErrNotRequested):
		return &problem.Error{Code: reviews.CodeReviewNotFound, Detail: err.Error()}
	case errors.Is(err, reviews.ErrQueueFull):
		return &problem.Error{Code: problem.CodeUnavailable, Detail: err.Error(), RetryAfter: reviews.RetryAfter}
	case errors.Is(err, reviews.ErrTooManyRunning):
		return &problem.Error{Code: quota.CodeRateLimited, Detail: err.Error(), RetryAfter: reviews.RetryAfter}
	}
	return err
}

// reviewAsker is the caller of a review route as the reviewer counts it (docs/operations.md,
// "Limits"): its address and, when it sent a player key, its player, each with its own count
// of reviews queued or being computed, and the Reviews rate checked before one is queued.
func (s *server) reviewAsker(c echo.Context) reviews.Asker {
	player := ""
	if cred, _ := bearer(c); players.IsKey(cred) {
		player = s.keyPlayer(c.Request().Context(), cred)
	}
	who := reviews.Asker{Keys: clientKeys(c, player)}
	if s.limits.reviews != nil {
		who.Admit = func() error { return s.limits.reviews.admit(c, player) }
	}
	return who
}

// reviewState is the review field of match id's view (MatchView.Review): "" when the view
// carries none (a live or sealed match, a server without reviews).
func (s *server) reviewState(c echo.Context, id string) (string, error) {
	if s.reviews == nil {
		return "", nil
	}
	st, ok, err := s.reviews.State(c.Request().Context(), id)
	if err != nil || !ok {
		return "", err
	}
	return string(st), nil
}

// withReview adds review to a state read's body, and -v with its first letter to the tag,
// once the match is finished: the review is kept beside the log, so the view of the version
// does not hold it, and it changes with no event (asked for, then done).
func (s *server) withReview(c echo.Context, id string, body []byte, tag string) ([]byte, string, error) {
	st, err := s.reviewState(c, id)
	if err != nil || st == "" {
		return body, tag, err
	}
	end := bytes.LastIndexByte(body, '}')
	if end < 0 {
		return body, tag, nil
	}
	// st is one of the four words of reviews.Status: it needs no escaping.
	out := append(append([]byte(nil), body[:end]...), `,"review":"`+st+`"`...)
	out = append(out, body[end:]...)
	return out, strings.TrimSuffix(tag, `"`) + "-v" + st[:1] + `"`, nil
}
