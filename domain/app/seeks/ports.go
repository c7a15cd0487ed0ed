package seeks

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/matchmaking"
)

// Status is where a seek stands.
type Status string

// The statuses of a seek. Pairing is a seek claimed for a match being created: it ends
// matched, or goes back to searching if the match could not be made.
const (
	StatusSearching Status = "searching"
	StatusPairing   Status = "pairing"
	StatusMatched   Status = "matched"
	StatusCancelled Status = "cancelled"
	StatusExpired   Status = "expired"
)

// Why a seek was cancelled.
const (
	ReasonCancelled  = "cancelled"   // its player's DELETE
	ReasonKeyRotated = "key_rotated" // its player rotated the key it was made with
)

// Record is a seek as the store keeps it.
type Record struct {
	ID          string
	Player      string
	Format      matchmaking.Format
	Rated       bool
	TurnSeconds int // the clock of the match it asks for; never 0 (Service.Create)
	Target      int // the target of the match it asks for; 0 (a seek stored naming none): EffectiveTarget
	// Rating is the player's displayed rating in Format when the seek was made: what the
	// pairing compares (ratings move only when matches end, not while one searches).
	Rating    float64
	Status    Status
	CreatedAt time.Time
	ExpiresAt time.Time
	// EndedAt is when it stopped searching: claimed, cancelled or expired; zero while it
	// searches.
	EndedAt time.Time
	// Match and Seat are the match it was claimed for and its player's seat there ("" and -1
	// before).
	Match  string
	Seat   int
	Reason string // why it was cancelled
}

// Claim is one seek's seat in the match it is claimed for.
type Claim struct {
	Seek string
	Seat int
}

// Store is the port for seeks (repository/sqlite, repository/postgres; checked by
// repository/storetest.RunSeeks). Times are kept to the nanosecond.
type Store interface {
	// PutSeek stores a new searching seek; a searching or pairing seek of the same player
	// and format is ErrAlreadySeeking, and nothing is stored.
	PutSeek(ctx context.Context, r Record) error
	// Seek returns seek id; false when there is none.
	Seek(ctx context.Context, id string) (Record, bool, error)
	// CancelSeek cancels seek id with reason at now if it still searches, and returns it as
	// it ends up (cancelled, or claimed, matched or expired before); false when there is none.
	CancelSeek(ctx context.Context, id string, now time.Time, reason string) (Record, bool, error)
	// CancelSeeksOf cancels every searching seek of player with reason; it returns how many.
	CancelSeeksOf(ctx context.Context, player string, now time.Time, reason string) (int, error)
	// ExpireSeeks ends as expired the searching seeks whose ExpiresAt is at or before now.
	ExpireSeeks(ctx context.Context, now time.Time) (int, error)
	// SearchingSeeks returns up to limit searching seeks, oldest first.
	SearchingSeeks(ctx context.Context, limit int) ([]Record, error)
	// SearchingSince returns up to limit searching seeks created at or after since, oldest
	// first: what a matcher that read the pool before needs to read again.
	SearchingSince(ctx context.Context, since time.Time, limit int) ([]Record, error)
	// ClaimSeeks marks every seek of claims pairing for match with its seat, in one
	// transaction, only if each still searches; false (and nothing changed) otherwise. Of two
	// claims of one seek at most one succeeds.
	ClaimSeeks(ctx context.Context, match string, claims []Claim, now time.Time) (bool, error)
	// SettleSeeks ends the pairing seeks of match: matched, or searching again (match and
	// seat cleared) when matched is false.
	SettleSeeks(ctx context.Context, match string, matched bool) error
	// PairingSince returns the seeks still pairing that were claimed at or before before:
	// claims whose matcher died between the claim and the settlement.
	PairingSince(ctx context.Context, before time.Time) ([]Record, error)
	// SeekOfMatch is the id of player's seek claimed for match; false when there is none.
	SeekOfMatch(ctx context.Context, player, match string) (string, bool, error)
	// Matching runs fn if this process may pair now: on PostgreSQL, holding an advisory
	// lock that one instance holds at a time (taken by another when its holder dies); in an
	// embedded store always. It reports whether fn ran.
	Matching(ctx context.Context, fn func(ctx context.Context) error) (bool, error)
}

// Matches is the port to the referee: creating a paired match, and whether one exists.
type Matches interface {
	CreatePaired(ctx context.Context, id string, req referee.CreateRequest, seats []referee.PairedSeat) (referee.Created, error)
	Exists(ctx context.Context, id string) (bool, error)
	BotNames() []string
}

// Keys is the port to the players: who a key belongs to.
type Keys interface {
	Authenticate(ctx context.Context, key string) (players.Player, error)
}

// Standings is the port to the ratings: a player's standing in each format it played
// (ratings.Store implements it).
type Standings interface {
	PlayerStandings(ctx context.Context, player string) ([]ratings.Standing, error)
}
