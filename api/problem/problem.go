// Package problem is the one mapping from an error to what a client is told of it: the codes
// only HTTP can get wrong, the table from every code to status and title (docs/api-errors.md,
// "Errors"), the Retry-After of the codes that say "not now", and the errors the HTTP layer
// raises. Each code is declared by its owner (the game's by domain, a service's by its package
// under domain/app, the stores' by domain/app/storeerr, RATE_LIMITED by domain/app/quota) and
// mapped here. The problem+json body itself is a wire type of package api (api.Problem).
package problem

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/quota"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/app/tournaments"
)

// The codes the HTTP layer adds to its owners' (docs/api-errors.md lists them all; these cover what
// only HTTP can get wrong, and the server's own state).
const (
	CodeNotFound             domain.Code = "NOT_FOUND"
	CodeMethodNotAllowed     domain.Code = "METHOD_NOT_ALLOWED"
	CodePayloadTooLarge      domain.Code = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedMediaType domain.Code = "UNSUPPORTED_MEDIA_TYPE"
	CodeNotReady             domain.Code = "NOT_READY"
	CodeUnavailable          domain.Code = "UNAVAILABLE"
	CodeRequestTimeout       domain.Code = "REQUEST_TIMEOUT"
	CodeHeaderTooLarge       domain.Code = "HEADER_TOO_LARGE"
)

// retryAfterOf is the Retry-After, in seconds, sent with the coded errors (*domain.Error) whose
// code says "not now" rather than "no".
var retryAfterOf = map[domain.Code]int{
	storeerr.CodeStoreBusy: 1,
	storeerr.CodeStoreFull: 30,
	// A restart of PostgreSQL takes seconds; the pool reconnects by itself.
	storeerr.CodeStoreUnavailable: 2,
	// A limit a service counts (challenges waiting, tournaments organised): room comes only
	// when a person acts or a match or tournament ends, a minute or more.
	quota.CodeRateLimited: 60,
}

// StatusClientClosed is the status logged, never sent, for a request whose client hung up
// before the answer was ready (nginx's 499).
const StatusClientClosed = 499

// kind is the status and the fixed title of one code.
type kind struct {
	status int
	title  string
}

// kinds is the one table from error code to HTTP status. Every error a client can see
// goes through it; a code missing here is a 500, so a new code cannot leak unmapped.
var kinds = map[domain.Code]kind{
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
	quota.CodeRateLimited:       {http.StatusTooManyRequests, "Rate limited"},
	domain.CodeInternal:         {http.StatusInternalServerError, "Internal error"},
	CodeNotReady:                {http.StatusServiceUnavailable, "Not ready"},
	CodeUnavailable:             {http.StatusServiceUnavailable, "Unavailable"},
	CodeRequestTimeout:          {http.StatusRequestTimeout, "Request timeout"},
	CodeHeaderTooLarge:          {http.StatusRequestHeaderFieldsTooLarge, "Request header fields too large"},
	// The stores' (domain/app/storeerr).
	storeerr.CodeRecordCorrupt:    {http.StatusInternalServerError, "Record corrupt"},
	storeerr.CodeStoreBusy:        {http.StatusServiceUnavailable, "Store busy"},
	storeerr.CodeStoreFull:        {http.StatusInsufficientStorage, "Store full"},
	storeerr.CodeStoreUnavailable: {http.StatusServiceUnavailable, "Store unavailable"},
	// A create that would let its creator compute the hands of whoever joins.
	domain.CodeSeedWithOpenSeats: {http.StatusBadRequest, "Seed with open seats"},
	// Reviews (docs/review.md, "API"): only of a finished match (the match's, declared by
	// domain), and only once asked for (declared by domain/app/reviews).
	domain.CodeMatchNotFinished: {http.StatusConflict, "Match not finished"},
	reviews.CodeReviewNotFound:  {http.StatusNotFound, "Review not found"},
	// Players (docs/api-players.md, "Players"), declared by domain/app/players; a player's second
	// seat of one match is the seats' refusal, declared by domain.
	players.CodeNameTaken:      {http.StatusConflict, "Name taken"},
	players.CodePlayerNotFound: {http.StatusNotFound, "Player not found"},
	domain.CodeAlreadySeated:   {http.StatusConflict, "Already seated"},
	// Consent and resignation (docs/api-matches.md, "Consent").
	domain.CodeSeatNotReserved:  {http.StatusConflict, "Seat not reserved"},
	domain.CodeSeatResigned:     {http.StatusConflict, "Seat resigned"},
	domain.CodeRematchCancelled: {http.StatusConflict, "Rematch cancelled"},
	// Explore and Play on start from a decision (docs/review.md, "Explore"), declared by domain.
	domain.CodeNotADecision: {http.StatusConflict, "Not a decision"},
	// Tournaments (docs/tournaments.md, "Errors"): the seal is the match's, declared by domain;
	// the rest by domain/app/tournaments.
	domain.CodeMatchSealed: {http.StatusConflict, "Match sealed"},

	tournaments.CodeTournamentNotFound: {http.StatusNotFound, "Tournament not found"},
	tournaments.CodeTournamentClosed:   {http.StatusConflict, "Tournament closed"},
	tournaments.CodeTournamentFull:     {http.StatusConflict, "Tournament full"},
	tournaments.CodeAlreadyEntered:     {http.StatusConflict, "Already entered"},
	tournaments.CodeNotOrganiser:       {http.StatusForbidden, "Not the organiser"},
	tournaments.CodeTooFewEntries:      {http.StatusConflict, "Too few entries"},
	// Play now (docs/matchmaking.md), declared by domain/app/seeks.
	seeks.CodeAlreadySeeking: {http.StatusConflict, "Already seeking"},
	seeks.CodeSeekNotFound:   {http.StatusNotFound, "Seek not found"},
	// Puzzles (docs/puzzles.md), declared by domain/app/puzzles.
	puzzles.CodePuzzleNotFound: {http.StatusNotFound, "Puzzle not found"},
	puzzles.CodeNoPuzzle:       {http.StatusNotFound, "No puzzle"},
	puzzles.CodeNotAnOption:    {http.StatusUnprocessableEntity, "Not an option"},
	puzzles.CodeNotYourPuzzles: {http.StatusForbidden, "Not your puzzles"},
}

// Row is one row of the error table (docs/api-errors.md, "Errors"): a code, the status it is
// answered with, its title, and the Retry-After in seconds sent with it (0: none).
type Row struct {
	Code       domain.Code
	Status     int
	Title      string
	RetryAfter int
}

// Rows is every code a client can see, read from kinds, the one table, so that the docs can
// be tested against it. Sorted by status, then code.
func Rows() []Row {
	out := make([]Row, 0, len(kinds))
	for code, k := range kinds {
		out = append(out, Row{Code: code, Status: k.status, Title: k.title, RetryAfter: retryAfterOf[code]})
	}
	slices.SortFunc(out, func(a, b Row) int {
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
	http.StatusTooManyRequests:       quota.CodeRateLimited,
}

// Error is an error found by the HTTP layer itself: a bad header, query or body.
type Error struct {
	Code   domain.Code
	Detail string
	// RetryAfter is in seconds; sent as Retry-After when positive.
	RetryAfter int
}

func (e *Error) Error() string { return e.Detail }

// New is the Error of code with detail, sent without Retry-After.
func New(code domain.Code, detail string) *Error { return &Error{Code: code, Detail: detail} }

// Panic is a recovered panic; its value and stack go to the log, never to the client.
type Panic struct {
	Value any
	Stack []byte
}

func (e *Panic) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Answer is what a client is told of an error: the fields of the problem+json body the error
// decides, and the Retry-After in seconds (0: none).
type Answer struct {
	Code   domain.Code
	Status int
	Title  string
	Detail string
	// CurrentVersion is the match's version, with VERSION_CONFLICT only.
	CurrentVersion *int
	RetryAfter     int
}

// For turns any error into the answer the client sees. ok is false when the error is not one
// the client caused or may know about: it is then logged and shown only as INTERNAL.
func For(err error) (p Answer, ok bool) {
	code, detail := domain.CodeInternal, ""
	var (
		ae  *Error
		vc  *domain.VersionConflictError
		de  *domain.Error
		he  *echo.HTTPError
		mbe *http.MaxBytesError
	)
	switch {
	case errors.As(err, &ae):
		code, detail, p.RetryAfter = ae.Code, ae.Detail, ae.RetryAfter
	case errors.As(err, &vc):
		code, detail = domain.CodeVersionConflict, vc.Error()
		current := vc.Current
		p.CurrentVersion = &current
	case errors.As(err, &de):
		code, detail, p.RetryAfter = de.Code(), err.Error(), retryAfterOf[de.Code()]
	case errors.As(err, &mbe):
		code, detail = CodePayloadTooLarge, fmt.Sprintf("the request body is larger than %d bytes", mbe.Limit)
	case errors.As(err, &he):
		if c, known := codeByStatus[he.Code]; known {
			code, detail = c, echoMessage(he)
		}
	}
	k, known := kinds[code]
	if !known || code == domain.CodeInternal {
		code, k = domain.CodeInternal, kinds[domain.CodeInternal]
		detail = "the server failed to answer; quote the request_id when reporting it"
		p.CurrentVersion = nil
		ok = false
	} else {
		ok = true
	}
	p.Title, p.Status, p.Code, p.Detail = k.title, k.status, code, detail
	return p, ok
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

// KindOf is the status and the title code is answered with; ok is false for a code outside
// the table, which a client never sees.
func KindOf(code domain.Code) (status int, title string, ok bool) {
	k, ok := kinds[code]
	return k.status, k.title, ok
}
