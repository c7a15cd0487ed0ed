package reviews

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain"
)

// Status is where a stored review stands.
type Status string

// The statuses of a stored review (docs/review.md, "Storage").
const (
	// StatusRunning: a worker was given the review and has not stored its answer yet.
	StatusRunning Status = "running"
	// StatusDone: Record.Result holds the answer. A done review never changes.
	StatusDone Status = "done"
	// StatusFailed: the match cannot be reviewed; Record.Code says why.
	StatusFailed Status = "failed"
	// StatusNone: no review of the match was asked for (with this method). Never stored: it
	// is what a match's view says when the store has no record (Service.State).
	StatusNone Status = "none"
)

// Record is one stored review of one match by one method.
type Record struct {
	MatchID string
	// Method is analysis.Options.Method(): the engine's version and budgets. A match has one
	// review per method, so a new method computes afresh and the old answers stay as they were.
	Method string
	Status Status
	// Result is the answer's JSON exactly as the engine's encoding produced it (Encode), done
	// only: it is served verbatim, so every instance answers the same bytes.
	Result []byte
	// Code is the problem a failed review answers (RECORD_CORRUPT); empty otherwise.
	Code        domain.Code
	RequestedAt time.Time
	FinishedAt  time.Time // zero while running
}

// Store is the port for stored reviews, derived data kept apart from the match's log.
// Implementations: memstore, and the SQLite and PostgreSQL stores; all pass
// storetest.RunReviews.
type Store interface {
	// Review returns the review stored for (matchID, method), with ok false when there is none.
	Review(ctx context.Context, matchID, method string) (rec Record, ok bool, err error)
	// ReviewStatus returns the status of the review stored for (matchID, method), with ok
	// false when there is none. It reads the status alone, by the table's key, and never the
	// answer: a match's view asks it on every read (Service.State).
	ReviewStatus(ctx context.Context, matchID, method string) (st Status, ok bool, err error)
	// StartReview records that the review of (matchID, method) is running, asked for at at, and
	// returns the record as stored with started true. When the review is done already it changes
	// nothing and returns the done record with started false: a done review is final. A review
	// that is running or failed starts again. ErrMatchNotFound when no such match is stored.
	StartReview(ctx context.Context, matchID, method string, at time.Time) (rec Record, started bool, err error)
	// FinishReview stores rec's outcome (done with Result, or failed with Code) and FinishedAt,
	// whether or not StartReview ran before, unless the review is done already: then it
	// changes nothing (the engine is deterministic, so the stored answer is the same).
	// ErrMatchNotFound when no such match is stored.
	FinishReview(ctx context.Context, rec Record) error
}

// Matches is what the reviewer needs of the referee (*referee.MatchService): whether a match
// has finished, and its log, which a finished match shows to everyone unredacted.
type Matches interface {
	StatusOf(ctx context.Context, id string) (domain.Status, error)
	Events(ctx context.Context, id string, v domain.Viewer, after, limit int) ([]domain.Event, int, error)
}

// Sealer is what Matches also implements when a match may be sealed: a match of a duplicate
// round still being played (docs/tournaments.md), which is reviewed only once its round ends.
type Sealer interface {
	Sealed(ctx context.Context, id string) (bool, error)
}
