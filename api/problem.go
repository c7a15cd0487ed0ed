package api

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
)

// The codes the HTTP layer adds to the domain's (docs/api.md lists the domain's; these cover
// what only HTTP can get wrong).
const (
	CodeNotFound             domain.Code = "NOT_FOUND"
	CodeMethodNotAllowed     domain.Code = "METHOD_NOT_ALLOWED"
	CodePayloadTooLarge      domain.Code = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedMediaType domain.Code = "UNSUPPORTED_MEDIA_TYPE"
	CodeRateLimited          domain.Code = domain.CodeRateLimited
	CodeNotReady             domain.Code = "NOT_READY"
	CodeUnavailable          domain.Code = "UNAVAILABLE"
	CodeRequestTimeout       domain.Code = "REQUEST_TIMEOUT"
	CodeHeaderTooLarge       domain.Code = "HEADER_TOO_LARGE"
	// CodeReviewNotFound: no review of the match was asked for (docs/review.md, "API").
	CodeReviewNotFound domain.Code = "REVIEW_NOT_FOUND"
)

// retryAfterOf is the Retry-After, in seconds, sent with the domain's codes that say "not now"
// rather than "no".
var retryAfterOf = map[domain.Code]int{
	domain.CodeStoreBusy: 1,
	domain.CodeStoreFull: 30,
	// A restart of PostgreSQL takes seconds; the pool reconnects by itself.
	domain.CodeStoreUnavailable: 2,
	// Too many challenges waiting (the store's count): one answered, declined or expired
	// makes room, which takes a person a minute or more.
	domain.CodeRateLimited: 60,
}

// statusClientClosed is the status logged, never sent, for a request whose client hung up
// before the answer was ready (nginx's 499).
const statusClientClosed = 499

// problemKind is the status and the fixed title of one code.
type problemKind struct {
	status int
	title  string
}

// problemKinds is the one table from error code to HTTP status. Every error a client can see
// goes through it; a code missing here is a 500, so a new domain code cannot leak unmapped.
var problemKinds = map[domain.Code]problemKind{
	domain.CodeInvalidRequest:   {http.StatusBadRequest, "Invalid request"},
	domain.CodeUnauthorized:     {http.StatusUnauthorized, "Unauthorized"},
	domain.CodeMatchNotFound:    {http.StatusNotFound, "Match not found"},
	CodeNotFound:                {http.StatusNotFound, "Not found"},
	CodeMethodNotAllowed:        {http.StatusMethodNotAllowed, "Method not allowed"},
	domain.CodeNotYourTurn:      {http.StatusConflict, "Not your turn"},
	domain.CodeMatchFinished:    {http.StatusConflict, "Match finished"},
	domain.CodeVersionConflict:  {http.StatusConflict, "Version conflict"},
	domain.CodeSeatTaken:        {http.StatusConflict, "Seat taken"},
	domain.CodeMatchNotStarted:  {http.StatusConflict, "Match not started"},
	domain.CodeMatchStarted:     {http.StatusConflict, "Match started"},
	domain.CodeInvalidInvite:    {http.StatusForbidden, "Invalid invite"},
	CodePayloadTooLarge:         {http.StatusRequestEntityTooLarge, "Payload too large"},
	CodeUnsupportedMediaType:    {http.StatusUnsupportedMediaType, "Unsupported media type"},
	domain.CodeTileNotInHand:    {http.StatusUnprocessableEntity, "Tile not in hand"},
	domain.CodeTileDoesNotFit:   {http.StatusUnprocessableEntity, "Tile does not fit"},
	domain.CodeEndRequired:      {http.StatusUnprocessableEntity, "End required"},
	domain.CodeMustLeadDouble:   {http.StatusUnprocessableEntity, "Must lead the highest double"},
	domain.CodeMustPlay:         {http.StatusUnprocessableEntity, "Must play"},
	domain.CodeMustDraw:         {http.StatusUnprocessableEntity, "Must draw"},
	domain.CodeMustPass:         {http.StatusUnprocessableEntity, "Must pass"},
	domain.CodeIdempotencyReuse: {http.StatusUnprocessableEntity, "Idempotency key reused"},
	CodeRateLimited:             {http.StatusTooManyRequests, "Rate limited"},
	domain.CodeInternal:         {http.StatusInternalServerError, "Internal error"},
	CodeNotReady:                {http.StatusServiceUnavailable, "Not ready"},
	domain.CodeRecordCorrupt:    {http.StatusInternalServerError, "Record corrupt"},
	domain.CodeStoreBusy:        {http.StatusServiceUnavailable, "Store busy"},
	domain.CodeStoreFull:        {http.StatusInsufficientStorage, "Store full"},
	domain.CodeStoreUnavailable: {http.StatusServiceUnavailable, "Store unavailable"},
	CodeUnavailable:             {http.StatusServiceUnavailable, "Unavailable"},
	CodeRequestTimeout:          {http.StatusRequestTimeout, "Request timeout"},
	CodeHeaderTooLarge:          {http.StatusRequestHeaderFieldsTooLarge, "Request header fields too large"},
	// A create that would let its creator compute the hands of whoever joins.
	domain.CodeSeedWithOpenSeats: {http.StatusBadRequest, "Seed with open seats"},
	// Reviews (docs/review.md, "API"): only of a finished match, and only once asked for.
	domain.CodeMatchNotFinished: {http.StatusConflict, "Match not finished"},
	CodeReviewNotFound:          {http.StatusNotFound, "Review not found"},
	// Players (docs/api.md, "Players").
	domain.CodeNameTaken:      {http.StatusConflict, "Name taken"},
	domain.CodePlayerNotFound: {http.StatusNotFound, "Player not found"},
	domain.CodeAlreadySeated:  {http.StatusConflict, "Already seated"},
	// Consent and resignation (docs/api.md, "Consent").
	domain.CodeSeatNotReserved:  {http.StatusConflict, "Seat not reserved"},
	domain.CodeSeatResigned:     {http.StatusConflict, "Seat resigned"},
	domain.CodeRematchCancelled: {http.StatusConflict, "Rematch cancelled"},
	// Play now (docs/matchmaking.md).
	domain.CodeAlreadySeeking: {http.StatusConflict, "Already seeking"},
	domain.CodeSeekNotFound:   {http.StatusNotFound, "Seek not found"},
}

// ProblemCode is one row of the error table (docs/api.md, "Errors"): a code, the status it is
// answered with, its title, and the Retry-After in seconds sent with it (0: none).
type ProblemCode struct {
	Code       domain.Code
	Status     int
	Title      string
	RetryAfter int
}

// ProblemCodes is every code a client can see, read from problemKinds, the one table, so that
// the docs can be tested against it. Sorted by status, then code.
func ProblemCodes() []ProblemCode {
	out := make([]ProblemCode, 0, len(problemKinds))
	for code, k := range problemKinds {
		out = append(out, ProblemCode{Code: code, Status: k.status, Title: k.title, RetryAfter: retryAfterOf[code]})
	}
	slices.SortFunc(out, func(a, b ProblemCode) int {
		return cmp.Or(cmp.Compare(a.Status, b.Status), cmp.Compare(a.Code, b.Code))
	})
	return out
}

// codeByStatus names the errors Echo raises itself (routing, our middleware's echo errors).
var codeByStatus = map[int]domain.Code{
	http.StatusBadRequest:            domain.CodeInvalidRequest,
	http.StatusUnauthorized:          domain.CodeUnauthorized,
	http.StatusNotFound:              CodeNotFound,
	http.StatusMethodNotAllowed:      CodeMethodNotAllowed,
	http.StatusRequestEntityTooLarge: CodePayloadTooLarge,
	http.StatusUnsupportedMediaType:  CodeUnsupportedMediaType,
	http.StatusTooManyRequests:       CodeRateLimited,
}

// Problem is an RFC 9457 problem detail with a stable code (docs/design.md, "Errors").
type Problem struct {
	// Type is a URI naming the kind of problem: urn:allfives:problem: followed by the code.
	Type   string `json:"type" example:"urn:allfives:problem:NOT_YOUR_TURN"`
	Title  string `json:"title" example:"Not your turn"`
	Status int    `json:"status" example:"409"`
	Detail string `json:"detail" example:"it is not your turn: seat 1 is to move"`
	// Instance is the path of the request that failed.
	Instance string `json:"instance" example:"/api/v1/matches/0f3c/moves"`
	Code     string `json:"code" enums:"INVALID_REQUEST,SEED_WITH_OPEN_SEATS,UNAUTHORIZED,MATCH_NOT_FOUND,PLAYER_NOT_FOUND,REVIEW_NOT_FOUND,NOT_FOUND,METHOD_NOT_ALLOWED,NOT_YOUR_TURN,MATCH_FINISHED,VERSION_CONFLICT,SEAT_TAKEN,ALREADY_SEATED,NAME_TAKEN,MATCH_NOT_FINISHED,MATCH_NOT_STARTED,MATCH_STARTED,SEAT_NOT_RESERVED,SEAT_RESIGNED,REMATCH_CANCELLED,ALREADY_SEEKING,SEEK_NOT_FOUND,INVALID_INVITE,PAYLOAD_TOO_LARGE,UNSUPPORTED_MEDIA_TYPE,TILE_NOT_IN_HAND,TILE_DOES_NOT_FIT,END_REQUIRED,MUST_LEAD_DOUBLE,MUST_PLAY,MUST_DRAW,MUST_PASS,IDEMPOTENCY_KEY_REUSED,RATE_LIMITED,INTERNAL,NOT_READY,RECORD_CORRUPT,STORE_UNAVAILABLE,STORE_BUSY,STORE_FULL,UNAVAILABLE,REQUEST_TIMEOUT,HEADER_TOO_LARGE"`
	// RequestID is the X-Request-ID of the request; quote it when reporting a problem.
	RequestID string `json:"request_id"`
	// CurrentVersion is the match's version, with VERSION_CONFLICT only.
	CurrentVersion *int `json:"current_version,omitempty"`
}

// apiError is an error found by the HTTP layer itself: a bad header, query or body.
type apiError struct {
	code       domain.Code
	detail     string
	retryAfter int // seconds; sent as Retry-After when positive
}

func (e *apiError) Error() string { return e.detail }

// panicError is a recovered panic; its value and stack go to the log, never to the client.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// problemFor turns any error into the problem the client sees. ok is false when the error is
// not one the client caused or may know about: it is then logged and shown only as INTERNAL.
func problemFor(err error) (p Problem, retryAfter int, ok bool) {
	code, detail := domain.CodeInternal, ""
	var (
		ae  *apiError
		vc  *domain.VersionConflictError
		de  *domain.Error
		he  *echo.HTTPError
		mbe *http.MaxBytesError
	)
	switch {
	case errors.As(err, &ae):
		code, detail, retryAfter = ae.code, ae.detail, ae.retryAfter
	case errors.As(err, &vc):
		code, detail = domain.CodeVersionConflict, vc.Error()
		current := vc.Current
		p.CurrentVersion = &current
	case errors.As(err, &de):
		code, detail, retryAfter = de.Code(), err.Error(), retryAfterOf[de.Code()]
	case errors.As(err, &mbe):
		code, detail = CodePayloadTooLarge, fmt.Sprintf("the request body is larger than %d bytes", mbe.Limit)
	case errors.As(err, &he):
		if c, known := codeByStatus[he.Code]; known {
			code, detail = c, echoMessage(he)
		}
	}
	kind, known := problemKinds[code]
	if !known || code == domain.CodeInternal {
		code, kind = domain.CodeInternal, problemKinds[domain.CodeInternal]
		detail = "the server failed to answer; quote the request_id when reporting it"
		p.CurrentVersion = nil
		ok = false
	} else {
		ok = true
	}
	p.Type, p.Title, p.Status, p.Code, p.Detail = "urn:allfives:problem:"+string(code), kind.title, kind.status, string(code), detail
	return p, retryAfter, ok
}

// echoMessage words an error Echo raised itself. Its own messages are bare status texts
// ("Not Found"), which tell a client nothing it can act on.
func echoMessage(he *echo.HTTPError) string {
	switch he.Code {
	case http.StatusNotFound:
		return "no route matches this path; /openapi.yaml lists the API's routes"
	case http.StatusMethodNotAllowed:
		return "this route does not take this method; the Allow header lists those it takes"
	}
	if s, ok := he.Message.(string); ok && s != "" && s != http.StatusText(he.Code) {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return strings.ToLower(http.StatusText(he.Code))
}

// handleError is Echo's HTTPErrorHandler: every error, ours or Echo's, leaves as
// application/problem+json through here.
func (s *server) handleError(err error, c echo.Context) {
	p, retryAfter, ok := problemFor(err)
	p.RequestID = requestID(c)
	p.Instance = c.Request().URL.Path
	log := s.logger(c)
	switch {
	case !ok && errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil:
		log.Info("request abandoned by the client", "err", err)
		if !c.Response().Committed {
			// Nobody is left to read an answer. The status is only for the access log and the
			// metrics, which must not count a client hanging up as a server error.
			c.Response().Status = statusClientClosed
		}
		return
	case !ok:
		attrs := []any{"err", err}
		var pe *panicError
		if errors.As(err, &pe) {
			attrs = append(attrs, "stack", string(pe.stack))
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
