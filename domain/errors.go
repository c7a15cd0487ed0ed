package domain

import (
	"errors"
	"fmt"
)

// Code is the stable, machine-readable name of an error a client may see. Clients switch on it;
// it never changes once published. The game's codes are below; every other owner (a service, the
// stores) declares its own beside its errors, and api/problem maps each code to its answer.
type Code string

// The codes clients see (docs/api-errors.md, "Errors").
const (
	CodeInvalidRequest   Code = "INVALID_REQUEST"
	CodeUnauthorized     Code = "UNAUTHORIZED"
	CodeMatchNotFound    Code = "MATCH_NOT_FOUND"
	CodeNotYourTurn      Code = "NOT_YOUR_TURN"
	CodeMatchFinished    Code = "MATCH_FINISHED"
	CodeVersionConflict  Code = "VERSION_CONFLICT"
	CodeTileNotInHand    Code = "TILE_NOT_IN_HAND"
	CodeTileDoesNotFit   Code = "TILE_DOES_NOT_FIT"
	CodeEndRequired      Code = "END_REQUIRED"
	CodeMustLeadDouble   Code = "MUST_LEAD_DOUBLE"
	CodeMustPlay         Code = "MUST_PLAY"
	CodeMustDraw         Code = "MUST_DRAW"
	CodeMustPass         Code = "MUST_PASS"
	CodeIdempotencyReuse Code = "IDEMPOTENCY_KEY_REUSED"
	CodeSeatTaken        Code = "SEAT_TAKEN"
	CodeInvalidInvite    Code = "INVALID_INVITE"
	CodeMatchNotStarted  Code = "MATCH_NOT_STARTED"
	CodeMatchStarted     Code = "MATCH_STARTED"
	CodeInternal         Code = "INTERNAL"
	// CodeSeedWithOpenSeats: a chosen seed for a match that others may join.
	CodeSeedWithOpenSeats Code = "SEED_WITH_OPEN_SEATS"
	// CodeMatchNotFinished: a review asked of a match still being played.
	CodeMatchNotFinished Code = "MATCH_NOT_FINISHED"
	// CodeAlreadySeated: a player taking a second seat of one match.
	CodeAlreadySeated Code = "ALREADY_SEATED"
)

// The codes of consent and resignation (docs/api-matches.md, "Consent").
const (
	// CodeSeatNotReserved: a decline of a seat kept for no one (taken, or open to anyone).
	CodeSeatNotReserved Code = "SEAT_NOT_RESERVED"
	// CodeSeatResigned: a command its seat can no longer give, having resigned.
	CodeSeatResigned Code = "SEAT_RESIGNED"
	// CodeRematchCancelled: a rematch asked of a match whose rematch offer was cancelled.
	CodeRematchCancelled Code = "REMATCH_CANCELLED"
)

// CodeNotADecision: a step of a finished match that no seat chose among moves (docs/review.md,
// "Explore").
const CodeNotADecision Code = "NOT_A_DECISION"

// ErrNotADecision: Explore and Play on start from a decision, an event a seat chose among at
// least two legal moves; any other event (a forced move, a deal, a hand's end) is none.
var ErrNotADecision = NewError(CodeNotADecision, "that step is not a decision: explore and play on start from a play, draw or pass chosen among at least two legal moves")

// Error is an error with a stable code. Its values are sentinels, made once with NewError by
// the package that owns the code; callers wrap them with fmt.Errorf("%w: ...") for detail and
// test them with errors.Is.
type Error struct {
	code Code
	msg  string
}

// Code returns the stable code.
func (e *Error) Code() Code { return e.code }

// Error returns the human-readable message.
func (e *Error) Error() string { return e.msg }

// NewError is the sentinel of code with msg, the words a client reads. Call it only to declare a
// package-level sentinel, in the package that owns code.
func NewError(code Code, msg string) *Error { return &Error{code: code, msg: msg} }

// The domain's sentinel errors.
var (
	ErrInvalid          = NewError(CodeInvalidRequest, "invalid request")
	ErrBadTile          = NewError(CodeInvalidRequest, "bad tile")
	ErrBadEnd           = NewError(CodeInvalidRequest, "bad end")
	ErrBadSeed          = NewError(CodeInvalidRequest, "bad seed")
	ErrUnauthorized     = NewError(CodeUnauthorized, "a valid seat token for this match is required")
	ErrMatchNotFound    = NewError(CodeMatchNotFound, "match not found")
	ErrNotYourTurn      = NewError(CodeNotYourTurn, "it is not your turn")
	ErrMatchFinished    = NewError(CodeMatchFinished, "the match is finished")
	ErrVersionConflict  = NewError(CodeVersionConflict, "the match has moved on since that version")
	ErrTileNotInHand    = NewError(CodeTileNotInHand, "that tile is not in your hand")
	ErrTileDoesNotFit   = NewError(CodeTileDoesNotFit, "that tile does not match the end")
	ErrEndRequired      = NewError(CodeEndRequired, "the tile fits both ends: say which end")
	ErrMustLeadDouble   = NewError(CodeMustLeadDouble, "the lead must be the highest double")
	ErrMustPlay         = NewError(CodeMustPlay, "you hold a tile that fits: you must play")
	ErrMustDraw         = NewError(CodeMustDraw, "you cannot play and the boneyard has tiles: you must draw")
	ErrMustPass         = NewError(CodeMustPass, "you cannot play and the boneyard is empty: you must pass")
	ErrIdempotencyReuse = NewError(CodeIdempotencyReuse, "that idempotency key was used with another request")
	ErrSeatTaken        = NewError(CodeSeatTaken, "that seat is taken")
	ErrInvalidInvite    = NewError(CodeInvalidInvite, "the invite is missing or wrong for that seat")
	ErrMatchNotStarted  = NewError(CodeMatchNotStarted, "the match has not started: a seat is still open")
	ErrMatchStarted     = NewError(CodeMatchStarted, "the match has started: seats can no longer be left")
	// ErrSeedWithOpenSeats: whoever chooses the seed can compute every hand, so a match that
	// others may join is always dealt from a seed the server draws (docs/api-records.md, "Checking a
	// deal yourself").
	ErrSeedWithOpenSeats = NewError(CodeSeedWithOpenSeats, "a match with an open seat cannot take a chosen seed: whoever chooses the seed can compute every hand, the joiners' too; leave seed out")
	// ErrMatchNotFinished: a call that needs a finished match (a review, whose hands and seed
	// must be open, docs/review.md; a rematch) made on a live one. Each refusal adds which.
	ErrMatchNotFinished = NewError(CodeMatchNotFinished, "the match has not finished")
	// ErrAlreadySeated: one player never holds two seats of one match, or a reader could not
	// tell its seats apart, and a key would stand for two seats (docs/api-players.md, "Players").
	ErrAlreadySeated = NewError(CodeAlreadySeated, "the player already holds a seat of this match")
)

// The errors of consent and resignation (docs/api-matches.md, "Consent").
var (
	// ErrSeatNotReserved: only a seat kept for someone (a challenge, a rematch) is declined.
	ErrSeatNotReserved = NewError(CodeSeatNotReserved, "the seat is not reserved for anyone: only a reserved seat can be declined")
	// ErrSeatResigned: a resigned seat is played by its bot to the end; it cannot resign
	// again or be resumed.
	ErrSeatResigned = NewError(CodeSeatResigned, "the seat resigned")
	// ErrRematchCancelled: a match has one rematch offer; once it is cancelled (declined,
	// withdrawn or not accepted in time) there is no other.
	ErrRematchCancelled = NewError(CodeRematchCancelled, "the rematch offer was cancelled: a finished match has one rematch offer")
)

// detailf is sentinel with a formatted detail that replaces its text, as Invalidf is for
// ErrInvalid: the sentinel's own words may not fit the case.
func detailf(sentinel *Error, format string, args ...any) error {
	return &detailed{sentinel: sentinel, detail: fmt.Sprintf(format, args...)}
}

// CodeOf returns the stable code of err, or CodeInternal when err carries none.
func CodeOf(err error) Code {
	var de *Error
	if errors.As(err, &de) {
		return de.code
	}
	return CodeInternal
}

// VersionConflictError is ErrVersionConflict with the version the match is really at.
type VersionConflictError struct {
	Expected, Current int
}

// Error says both versions.
func (e *VersionConflictError) Error() string {
	return fmt.Sprintf("%s: expected version %d, the match is at version %d", ErrVersionConflict.msg, e.Expected, e.Current)
}

// Unwrap lets errors.Is(err, ErrVersionConflict) and errors.As(err, **Error) hold.
func (e *VersionConflictError) Unwrap() error { return ErrVersionConflict }

// ErrNoSeed is what a match rebuilt without its seed answers a command that would deal or
// reveal the seed: it can be read, not played. It carries no code, so a client sees INTERNAL.
var ErrNoSeed = errors.New("the match was rebuilt without its seed and cannot deal")

// Invalidf is ErrInvalid with a formatted detail: the one way, in every layer, to say a request
// is malformed. Its text is the detail alone, which is what a client reads; errors.Is(err,
// ErrInvalid) holds.
func Invalidf(format string, args ...any) error {
	return &detailed{sentinel: ErrInvalid, detail: fmt.Sprintf(format, args...)}
}

// Detailf is sentinel with a formatted detail that replaces its text, where the sentinel's own
// words would say something else than what happened: a 401 where no seat token is involved
// must not say that one is required. errors.Is(err, sentinel) holds.
func Detailf(sentinel *Error, format string, args ...any) error {
	return &detailed{sentinel: sentinel, detail: fmt.Sprintf(format, args...)}
}

// detailed is a sentinel with a detail that replaces its text.
type detailed struct {
	sentinel *Error
	detail   string
}

func (d *detailed) Error() string { return d.detail }
func (d *detailed) Unwrap() error { return d.sentinel }

// Wrap adds context to *errp, in the manner of pkgsite's derrors.Wrap: call it deferred with
// the operation's name. A domain error (any *Error) already says what went wrong in the
// client's words and is left as it is; errors.Is and errors.As see through the wrapping.
func Wrap(errp *error, format string, args ...any) {
	if *errp == nil {
		return
	}
	var de *Error
	if errors.As(*errp, &de) {
		return
	}
	*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
}
