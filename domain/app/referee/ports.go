package referee

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// EventStore is the port for durable match logs. Implementations: memstore (tests), the
// SQLite store in package repository/sqlite and the PostgreSQL store in repository/postgres;
// all pass storetest.Run.
type EventStore interface {
	// Create stores a new match: its record, its opening events (seq from 1) and read model.
	// An id already stored is a *VersionConflictError with Expected 0.
	Create(ctx context.Context, rec MatchRecord, events []domain.Event, sum domain.Summary) error
	// Append adds events after a.Expected in one transaction with the read model and the
	// idempotency record. If the log is not at a.Expected it returns *VersionConflictError
	// (checked before anything else about the events); a key the record's seat already
	// recorded for the match fails the whole append with ErrIdempotencyReuse (another seat's
	// record of the same key does not: keys are per seat, docs/api-matches.md "Idempotency"). The
	// stored version is the log's last seq, whatever a.Summary.Version says; Seeded stays
	// what Create stored, whatever a.Summary.Seeded says.
	Append(ctx context.Context, a Append) error
	// Match returns the stored record and read model, or ErrMatchNotFound.
	Match(ctx context.Context, id string) (StoredMatch, error)
	// Events returns the events with seq > after in order, at most limit (0: all), or
	// ErrMatchNotFound.
	Events(ctx context.Context, id string, after, limit int) ([]domain.Event, error)
	// Idempotency returns the record seat stored for (id, key), with ok=false when there is
	// none. It never returns, nor tells of, another seat's record of the same key.
	Idempotency(ctx context.Context, id string, seat int, key string) (rec IdempotencyRecord, ok bool, err error)
	// History lists matches newest first, filtered and paged by q.
	History(ctx context.Context, q HistoryQuery) (HistoryPage, error)
	// VerifyChain recomputes the hash chain of a match's stored events. It judges the events
	// alone: a read model whose version disagrees with the log is the read model's fault, which
	// the audit's read-model check reports.
	VerifyChain(ctx context.Context, id string) (audit.ChainReport, error)
	// Links returns a match's stored log as the hash chain sees it, in seq order: each
	// event's payload exactly as it was hashed and the prev_hash and hash stored beside it,
	// or ErrMatchNotFound. The payloads are the full record: callers redact.
	Links(ctx context.Context, id string) ([]audit.ChainLink, error)
	// Due lists up to q.Limit matches the clock must act on: in progress with a turn deadline
	// at or before q.Now, or waiting with their last event at or before q.WaitingBefore (when
	// set). The sweeper re-checks each under the match's lock; a stale listing is harmless.
	Due(ctx context.Context, q DueQuery) ([]string, error)
	// IdempotencyRecords returns every idempotency record of a match, in key order then seat
	// order, for the audit, or ErrMatchNotFound. A field that cannot be decoded is left zero, not an error.
	IdempotencyRecords(ctx context.Context, id string) ([]IdempotencyRecord, error)
}

// DueQuery asks the store for the matches the clock must act on.
type DueQuery struct {
	Now           time.Time
	WaitingBefore time.Time // zero: waiting matches never expire
	Limit         int
}

// Stores report a stored row they cannot decode (an event's payload, type or time, a seed) as
// an error wrapping storeerr.ErrRecordCorrupt; the service turns it into a *CorruptError that
// names the match and shows nothing of the row.

// Notifier is the port through which server instances sharing one store hear of each other's
// appends (docs/design.md, "Several instances"). The PostgreSQL store implements it with
// LISTEN/NOTIFY; a store used by one process alone needs none.
type Notifier interface {
	// Listen calls appended(matchID, version) for every append committed to the store, by any
	// instance (this one included), until ctx ends; it returns ctx's error then, or an error
	// that stops it for good. appended("", 0) says announcements may have been missed (the
	// listener reconnected): any match may have moved. Calls come from one goroutine, in the
	// order the store committed them. appended(id, 0) says match id's seats changed without
	// an append (a player's key rotated, which revokes its seats' tokens): its copy is dropped
	// whatever its version.
	Listen(ctx context.Context, appended func(matchID string, version int)) error
}

// MatchRecord is what is stored once when a match is created. Seed stays secret until the
// match ends: no store query for clients may return it while the match is live.
type MatchRecord struct {
	ID        string
	Seed      domain.Seed
	Seats     []SeatRecord
	CreatedAt time.Time
	// RematchOf is the finished match this one is the rematch of; NextMatchID, on a finished
	// match, its rematch once one was asked for (docs/api-players.md, "Players"). Create stores
	// RematchOf; NextMatchID is set later, by RematchStore.LinkRematch.
	RematchOf   string
	NextMatchID string
	// ChallengeCap, when positive, makes Create refuse a challenge (a seat reserved for a
	// player) whose creator, a player bound to one of its human seats, or a player it
	// reserves a seat for, already has that many challenges waiting for an answer: matches
	// waiting with a seat reserved for a player, rematches aside. The store counts them in
	// the create's transaction, so that racing creates cannot pass the cap together, and
	// refuses with ErrTooManyChallenges. It is not stored.
	ChallengeCap int
}

// SeatRecord is a seat with the SHA-256 of its token (nil for bots and open seats) and, for a
// seat created open, the SHA-256 of its invite (kept after a join, so that the invite works
// again if the player leaves). Player is the id of the lasting player the seat is bound to
// (a human seat) or reserved for (an open seat: a challenge, which only that player's key
// joins); empty for an anonymous seat (docs/api-players.md, "Players").
type SeatRecord struct {
	Seat       int
	Name       string
	Kind       domain.PlayerKind
	Bot        string
	TokenHash  []byte
	InviteHash []byte
	Player     string
}

// StoredMatch is a match's record and read model as stored.
type StoredMatch struct {
	Record  MatchRecord
	Summary domain.Summary
	// SummaryErr says why the read model could not be decoded (Summary then holds what could);
	// the audit reports it against the read model, and nothing else needs the read model.
	SummaryErr error
}

// Append is one atomic append to a match's log.
type Append struct {
	MatchID     string
	Expected    int
	Events      []domain.Event
	Summary     domain.Summary
	Idempotency *IdempotencyRecord
	// Seats are seat records that replace the stored ones in the same transaction: a join or a
	// leave changes who holds a seat and its token.
	Seats []SeatRecord
}

// IdempotencyRecord remembers which events a keyed request produced, so a retry gets the
// same answer and changes nothing. It belongs to (match, Seat, Key): each seat has keys of
// its own.
type IdempotencyRecord struct {
	Key         string
	Seat        int
	Fingerprint string
	FirstSeq    int
	LastSeq     int
	CreatedAt   time.Time
}

// HistoryQuery filters and pages the match history. Zero fields do not filter. Status waiting
// is the lobby: only listed matches (an unlisted waiting match is joined by invite only). Since is
// inclusive and Until exclusive, both on the creation time; Limit 0 means the store's default.
type HistoryQuery struct {
	Status domain.Status
	Player string
	Since  time.Time
	Until  time.Time
	Limit  int
	Cursor string
}

// HistoryItem is one match in the history.
type HistoryItem struct {
	ID        string
	CreatedAt time.Time
	Summary   domain.Summary
	// NextMatchID is the rematch of a finished match; empty when none was asked for.
	NextMatchID string
}

// HistoryPage is one page of history; NextCursor is empty on the last page.
type HistoryPage struct {
	Matches    []HistoryItem
	NextCursor string
}

// Clock is the port for time, so tests can fix it.
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock in UTC.
type SystemClock struct{}

// Now returns the current time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }
