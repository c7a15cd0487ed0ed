// Package sqlrow holds the rows both SQL stores (sqlite, postgres) keep, as GORM models, and
// their conversion to and from the domain: one schema shape, one encoding of the read model,
// one decoding of a stored event, whichever engine holds them.
package sqlrow

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/repository"
)

// Rows are the tables' shapes, kept apart from the domain types so that the schema and the
// domain can change independently; every column is named explicitly to match the migrations of both dialects.

// MatchRow is a row of matches: the secret seed and the read model of the history.
type MatchRow struct {
	ID         string `gorm:"column:id;primaryKey"`
	Seed       string `gorm:"column:seed"`
	Status     string `gorm:"column:status"`
	Players    string `gorm:"column:players"`
	Scores     string `gorm:"column:scores"`
	WinnerSide *int   `gorm:"column:winner_side"`
	Hands      int    `gorm:"column:hands"`
	Version    int    `gorm:"column:version"`
	CreatedAt  string `gorm:"column:created_at"`
	UpdatedAt  string `gorm:"column:updated_at"`
	// Seats and the clock (migrations/*/00002_seats_and_clock.sql).
	Listed       bool    `gorm:"column:listed"`
	OpenSeats    string  `gorm:"column:open_seats"`
	Target       int     `gorm:"column:target"`
	TurnSeconds  int     `gorm:"column:turn_seconds"`
	Turn         *int    `gorm:"column:turn"`
	TurnDeadline *string `gorm:"column:turn_deadline"`
	// Seeded is fixed at creation (migrations/*/00003_seat_keys_and_seeded.sql): an append
	// never writes it.
	Seeded bool `gorm:"column:seeded"`
	// NextMatchID names the rematch of a finished match, RematchOf the finished match a
	// rematch was created from; NULL otherwise (migrations/*/00006_rematch.sql).
	NextMatchID *string `gorm:"column:next_match_id"`
	RematchOf   *string `gorm:"column:rematch_of"`
}

// TableName tells GORM the table, which migrations/ names.
func (MatchRow) TableName() string { return "matches" }

// SeatRow is a row of seats.
type SeatRow struct {
	MatchID    string `gorm:"column:match_id;primaryKey"`
	Seat       int    `gorm:"column:seat;primaryKey;autoIncrement:false"`
	Name       string `gorm:"column:name"`
	Kind       string `gorm:"column:kind"`
	Bot        string `gorm:"column:bot"`
	TokenHash  Blob   `gorm:"column:token_hash"`
	InviteHash Blob   `gorm:"column:invite_hash"`
	// PlayerID binds the seat to a lasting player, with MatchCreatedAt, the match's
	// created_at, beside it for the index of a player's matches; both NULL for an anonymous
	// seat (migrations/*/00005_players.sql).
	PlayerID       *string `gorm:"column:player_id"`
	MatchCreatedAt *string `gorm:"column:match_created_at"`
	// MatchStatus is, on a bound seat, its match's status, which the database's triggers keep
	// for the index of a player's matches of one status; the code never writes it (->: read
	// only) nor reads it back (it is not in SeatColumns) (migrations/*/00009_player_match_status.sql).
	MatchStatus *string `gorm:"column:match_status;->"`
}

// TableName tells GORM the table, which migrations/ names.
func (SeatRow) TableName() string { return "seats" }

// SeatColumns are SeatRow's columns, named rather than read as *: PostgreSQL refuses to run a
// cached SELECT * whose result changed shape ("cached plan must not change result type"), so
// an instance that read seats before another instance's migration added a column to them
// (00005 added two) would fail its next read of a match.
var SeatColumns = []string{"match_id", "seat", "name", "kind", "bot", "token_hash", "invite_hash", "player_id", "match_created_at"}

// EventRow is a row of events. Data is the payload JSON exactly as hashed.
type EventRow struct {
	MatchID  string `gorm:"column:match_id;primaryKey"`
	Seq      int    `gorm:"column:seq;primaryKey;autoIncrement:false"`
	Type     string `gorm:"column:type"`
	Data     string `gorm:"column:data"`
	At       string `gorm:"column:at"`
	PrevHash Blob   `gorm:"column:prev_hash"`
	Hash     Blob   `gorm:"column:hash"`
}

// TableName tells GORM the table, which migrations/ names.
func (EventRow) TableName() string { return "events" }

// IdempotencyRow is a row of idempotency_keys, keyed by match, seat and key: each seat has
// keys of its own (docs/api-matches.md, "Idempotency").
type IdempotencyRow struct {
	MatchID     string `gorm:"column:match_id;primaryKey"`
	Seat        int    `gorm:"column:seat;primaryKey;autoIncrement:false"`
	Key         string `gorm:"column:key;primaryKey"`
	Fingerprint string `gorm:"column:fingerprint"`
	FirstSeq    int    `gorm:"column:first_seq"`
	LastSeq     int    `gorm:"column:last_seq"`
	CreatedAt   string `gorm:"column:created_at"`
}

// TableName tells GORM the table, which migrations/ names.
func (IdempotencyRow) TableName() string { return "idempotency_keys" }

// Blob is a BLOB column that stores an empty value as NULL, so that "no hash" (seq 1's
// prev_hash, a bot's token) is NULL in the database rather than a zero-length Blob.
type Blob []byte

// Value implements driver.Valuer.
func (b Blob) Value() (driver.Value, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return []byte(b), nil
}

// Scan implements sql.Scanner.
func (b *Blob) Scan(v any) error {
	switch x := v.(type) {
	case nil:
		*b = nil
	case []byte:
		*b = append(Blob(nil), x...)
	case string:
		*b = Blob(x)
	default:
		return fmt.Errorf("Blob column holds %T", v)
	}
	return nil
}

// Times are stored as repository.TimeLayout, so history can sort and compare created_at as
// stored text.
func FormatTime(t time.Time) string { return t.UTC().Format(repository.TimeLayout) }

func ParseTime(s string) (time.Time, error) {
	t, err := time.Parse(repository.TimeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

// ReadModel fills the read-model columns of a matches row from sum. The version stored is
// the log's head, which the store knows, whatever the caller's summary says.
func ReadModel(sum domain.Summary, version int) (MatchRow, error) {
	return readModel(sum, version, true)
}

// readModel is ReadModel, with the seat columns (players, open_seats) left empty unless
// seats: an append that seats no one does not write them (AppendColumns), so it does not
// encode them either.
func readModel(sum domain.Summary, version int, seats bool) (MatchRow, error) {
	var players, open []byte
	if seats {
		var err error
		if players, err = json.Marshal(sum.Players); err != nil {
			return MatchRow{}, err
		}
		if open, err = json.Marshal(nonNil(sum.OpenSeats)); err != nil {
			return MatchRow{}, err
		}
	}
	scores, err := json.Marshal(sum.Scores)
	if err != nil {
		return MatchRow{}, err
	}
	r := MatchRow{
		Status: string(sum.Status), Players: string(players), Scores: string(scores),
		WinnerSide: sum.WinnerSide, Hands: sum.Hands, Version: version, UpdatedAt: FormatTime(sum.UpdatedAt),
		Listed: sum.Listed, OpenSeats: string(open), Target: sum.Target, TurnSeconds: sum.TurnSeconds, Turn: sum.Turn,
		Seeded: sum.Seeded,
	}
	if sum.Deadline != nil {
		d := FormatTime(*sum.Deadline)
		r.TurnDeadline = &d
	}
	return r, nil
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// AppendColumns are the read-model columns an append rewrites; seeded, fixed when the match
// is created, is never among them. players and open_seats change
// only with a join or a leave. status is written only when it is not in_progress or the append
// starts the match (a join), and turn_deadline only for a match with a clock or with its
// status: SQLite rewrites
// an index entry whenever its column is SET, even to the value it had, and PostgreSQL can make
// an UPDATE that leaves every indexed column alone a heap-only tuple update that writes no
// index entry; most moves change neither.
func AppendColumns(sum domain.Summary, events []domain.Event) []string {
	return UpdateColumns(AppendShape(sum, events))
}

// AppendShape is the shape of an append's read-model update, as UpdateColumns takes it: whether
// it writes the status, the seats and the deadline.
func AppendShape(sum domain.Summary, events []domain.Event) (status, seats, clock bool) {
	seats = seatsChange(events)
	status = sum.Status != domain.StatusInProgress || seats
	// A waiting offer's deadline (docs/api-matches.md, "Consent") goes when its status changes: the
	// deal, or the cancellation.
	return status, seats, sum.TurnSeconds > 0 || status
}

// seatsChange says whether events seat someone or free a seat.
func seatsChange(events []domain.Event) bool {
	return slices.ContainsFunc(events, func(e domain.Event) bool {
		return e.Type == domain.TypeSeatJoined || e.Type == domain.TypeSeatLeft
	})
}

// UpdateColumns are the columns of one shape of the append's read-model update: always the
// scores, the version and the turn, then status, the seats, and the deadline as asked. The
// SQLite store's lean append prepares one statement per shape.
func UpdateColumns(status, seats, clock bool) []string {
	cols := []string{"scores", "winner_side", "hands", "version", "updated_at", "turn"}
	if status {
		cols = append(cols, "status")
	}
	if seats {
		cols = append(cols, "players", "open_seats")
	}
	if clock {
		cols = append(cols, "turn_deadline")
	}
	return cols
}

// Column is the value of read-model column c, as a database/sql argument.
func (r MatchRow) Column(c string) any {
	switch c {
	case "scores":
		return r.Scores
	case "winner_side":
		if r.WinnerSide == nil {
			return nil
		}
		return *r.WinnerSide
	case "hands":
		return r.Hands
	case "version":
		return r.Version
	case "updated_at":
		return r.UpdatedAt
	case "turn":
		if r.Turn == nil {
			return nil
		}
		return *r.Turn
	case "status":
		return r.Status
	case "players":
		return r.Players
	case "open_seats":
		return r.OpenSeats
	case "turn_deadline":
		if r.TurnDeadline == nil {
			return nil
		}
		return *r.TurnDeadline
	}
	panic("sqlrow: no read-model column " + c)
}

// Item decodes what the history lists of a matches row: its id, creation time and read model.
func (r MatchRow) Item() (referee.HistoryItem, error) {
	created, err := ParseTime(r.CreatedAt)
	if err != nil {
		return referee.HistoryItem{}, err
	}
	sum, err := r.Summary()
	if err != nil {
		return referee.HistoryItem{}, err
	}
	it := referee.HistoryItem{ID: r.ID, CreatedAt: created, Summary: sum}
	if r.NextMatchID != nil {
		it.NextMatchID = *r.NextMatchID
	}
	return it, nil
}

// Summary decodes the read model of a matches row.
func (r MatchRow) Summary() (domain.Summary, error) {
	s := domain.Summary{
		Status: domain.Status(r.Status), Hands: r.Hands, Version: r.Version, WinnerSide: r.WinnerSide,
		Listed: r.Listed, Target: r.Target, TurnSeconds: r.TurnSeconds, Turn: r.Turn, Seeded: r.Seeded,
	}
	if r.OpenSeats != "" {
		if err := json.Unmarshal([]byte(r.OpenSeats), &s.OpenSeats); err != nil {
			return s, fmt.Errorf("stored open seats: %w", err)
		}
	}
	if r.TurnDeadline != nil {
		d, err := ParseTime(*r.TurnDeadline)
		if err != nil {
			return s, err
		}
		s.Deadline = &d
	}
	if err := json.Unmarshal([]byte(r.Players), &s.Players); err != nil {
		return s, fmt.Errorf("stored players: %w", err)
	}
	if err := json.Unmarshal([]byte(r.Scores), &s.Scores); err != nil {
		return s, fmt.Errorf("stored scores: %w", err)
	}
	var err error
	s.UpdatedAt, err = ParseTime(r.UpdatedAt)
	return s, err
}

// Event decodes an events row.
func (r EventRow) Event() (domain.Event, error) {
	return EventOf(r.Seq, domain.EventType(r.Type), []byte(r.Data), []byte(r.At))
}

// EventOf decodes the columns of an events row; it keeps neither byte slice.
func EventOf(seq int, typ domain.EventType, payload, stamp []byte) (domain.Event, error) {
	data, err := domain.DecodeEventData(typ, payload)
	if err != nil {
		// %v, not %w: a stored payload that does not decode (a bad tile, say) is damage to
		// the store, an internal error, not the client's invalid request.
		return domain.Event{}, fmt.Errorf("%w: seq %d: %v", storeerr.ErrRecordCorrupt, seq, err)
	}
	at, err := ParseTime(string(stamp))
	if err != nil {
		return domain.Event{}, fmt.Errorf("%w: seq %d: %v", storeerr.ErrRecordCorrupt, seq, err)
	}
	return domain.Event{Seq: seq, Type: typ, At: at, Data: data}, nil
}
