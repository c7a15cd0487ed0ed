package api

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/middleware"
	"github.com/allfives/allfives/api/problem"
)

// Problem is an RFC 9457 problem detail with a stable code (docs/design.md, "Errors").
type Problem struct {
	// Type is a URI naming the kind of problem: urn:allfives:problem: followed by the code.
	Type   string `json:"type" example:"urn:allfives:problem:NOT_YOUR_TURN"`
	Title  string `json:"title" example:"Not your turn"`
	Status int    `json:"status" example:"409"`
	Detail string `json:"detail" example:"it is not your turn: seat 1 is to move"`
	// Instance is the path of the request that failed.
	Instance string `json:"instance" example:"/api/v1/matches/0f3c/moves"`
	Code     string `json:"code" enums:"INVALID_REQUEST,SEED_WITH_OPEN_SEATS,UNAUTHORIZED,MATCH_NOT_FOUND,PLAYER_NOT_FOUND,TOURNAMENT_NOT_FOUND,REVIEW_NOT_FOUND,PUZZLE_NOT_FOUND,NO_PUZZLE,NOT_FOUND,METHOD_NOT_ALLOWED,NOT_YOUR_TURN,MATCH_FINISHED,VERSION_CONFLICT,SEAT_TAKEN,ALREADY_SEATED,NAME_TAKEN,MATCH_NOT_FINISHED,MATCH_NOT_STARTED,MATCH_STARTED,SEAT_NOT_RESERVED,SEAT_RESIGNED,REMATCH_CANCELLED,NOT_A_DECISION,ALREADY_SEEKING,SEEK_NOT_FOUND,MATCH_SEALED,TOURNAMENT_CLOSED,TOURNAMENT_FULL,ALREADY_ENTERED,TOO_FEW_ENTRIES,INVALID_INVITE,NOT_ORGANISER,NOT_YOUR_PUZZLES,PAYLOAD_TOO_LARGE,UNSUPPORTED_MEDIA_TYPE,TILE_NOT_IN_HAND,TILE_DOES_NOT_FIT,END_REQUIRED,MUST_LEAD_DOUBLE,MUST_PLAY,MUST_DRAW,MUST_PASS,IDEMPOTENCY_KEY_REUSED,NOT_AN_OPTION,RATE_LIMITED,INTERNAL,NOT_READY,RECORD_CORRUPT,STORE_UNAVAILABLE,STORE_BUSY,STORE_FULL,UNAVAILABLE,REQUEST_TIMEOUT,HEADER_TOO_LARGE"`
	// RequestID is the X-Request-ID of the request; quote it when reporting a problem.
	RequestID string `json:"request_id"`
	// CurrentVersion is the match's version, with VERSION_CONFLICT only.
	CurrentVersion *int `json:"current_version,omitempty"`
}

// handleError is Echo's HTTPErrorHandler: every error, ours or Echo's, leaves as
// application/problem+json through here.
func (s *server) handleError(err error, c echo.Context) {
	p, retryAfter, ok := problemOf(err)
	p.RequestID = middleware.RequestIDOf(c)
	p.Instance = c.Request().URL.Path
	log := s.logger(c)
	switch {
	case !ok && errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil:
		log.Info("request abandoned by the client", "err", err)
		if !c.Response().Committed {
			// Nobody is left to read an answer. The status is only for the access log and the
			// metrics, which must not count a client hanging up as a server error.
			c.Response().Status = problem.StatusClientClosed
		}
		return
	case !ok:
		attrs := []any{"err", err}
		var pe *problem.Panic
		if errors.As(err, &pe) {
			attrs = append(attrs, "stack", string(pe.Stack))
		}
		log.Error("internal error", attrs...)
	case p.Status >= 500:
		// A known fault of the server's (a damaged record, a store that cannot write): not the
		// client's doing, so logged for the operator. The detail names no hidden information.
		log.Error("request failed", "code", p.Code, "detail", p.Detail)
	default:
		log.Debug("request refused", "code", p.Code, "detail", p.Detail)
	}
	if c.Response().Committed {
		return // the status is on the wire already; all that is left is the log line above
	}
	body, mErr := json.Marshal(p)
	if mErr != nil {
		log.Error("encode problem", "err", mErr)
		return
	}
	if retryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfter))
	}
	if wErr := c.Blob(p.Status, "application/problem+json", body); wErr != nil {
		log.Debug("write problem", "err", wErr)
	}
}

// problemOf is the problem the client sees of err (problem.For), and its Retry-After.
func problemOf(err error) (p Problem, retryAfter int, ok bool) {
	a, ok := problem.For(err)
	p.Type, p.Title, p.Status, p.Code, p.Detail = "urn:allfives:problem:"+string(a.Code), a.Title, a.Status, string(a.Code), a.Detail
	p.CurrentVersion = a.CurrentVersion
	return p, a.RetryAfter, ok
}
