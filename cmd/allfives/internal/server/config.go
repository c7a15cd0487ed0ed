package server

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/repository/sqlite"
)

// Config is what a server runs with. serve fills it from its flags (docs/operations.md);
// DefaultConfig is what serve runs with when no flag or variable is set. Start and Run take
// it as it is: a zero duration is not a default, so begin from DefaultConfig.
type Config struct {
	Addr        string        // Run's listener
	DB          string        // a SQLite file, or a postgres:// URL
	ListenDB    string        // PostgreSQL only: a direct URL for LISTEN when DB is a pooler's
	Sync        string        // SQLite's durability: full, normal or off
	BusyTimeout time.Duration // the wait for another writer's lock
	Logger      *slog.Logger  // nil: nothing is logged
	RateLimit   float64       // requests per second per client address; 0: off
	CORSOrigins []string
	// WaitingTTL is how long a waiting match's open seats may stay empty; 0: for ever.
	WaitingTTL time.Duration
	SweepEvery time.Duration // how often the clock's sweeper looks for due turns
	BotWorkers int
	// ReviewWorkers compute reviews on Review's budgets (the zero value: the method's own;
	// a test gives a small one, such as apitest.SmallReview).
	ReviewWorkers int
	Review        analysis.Options
	MaxStreams    int
	// MaxStreamsPerClient bounds the live streams of one client address.
	MaxStreamsPerClient int
	CacheMiB            float64 // memory for matches held in memory
	AccessSample        float64 // log one in this many fast successful requests
	Drain               time.Duration
	PprofAddr           string        // "": no profiles served
	RatingsEvery        time.Duration // how often the ratings' projection looks for work
	RematchTTL          time.Duration // how long a rematch offer stands
	RatedTurnSeconds    int           // the clock of a rated match created without one
	// TournamentSweep is how often the tournaments' driver looks for tournaments due (a start
	// time come, a round whose matches ended unheard); announcements drive it between sweeps.
	TournamentSweep time.Duration
	Limits          Limits
	Seeks           Seeks
	// Clock is the time of the match service, the players (tickets, keys), the reviewer,
	// the matcher and the tournaments; nil: the wall clock. Tests give one they move.
	Clock referee.Clock
	// BotSeed seeds the bots' randomness; 0: a fresh seed from crypto/rand, as serve does,
	// so that no one can learn a bot's choices from another server's.
	BotSeed uint64
	// Random is where the match service draws seeds, ids and tokens, and the tournaments their
	// duplicate rounds' seeds; nil: crypto/rand, as serve does. A test gives a seeded source,
	// safe for concurrent use, so that a failure deals the same hands again.
	Random io.Reader
}

// Limits are what serve limits (docs/operations.md, "Limits"): the API's buckets, the
// referee's caps, the reviewer's per client, and whose X-Forwarded-For names the client. The
// zero value limits nothing (serve --limits off) and trusts no proxy.
type Limits struct {
	API            api.Limits
	MaxChallenges  int // waiting challenges from one player, and to one player
	RunningReviews int // reviews queued or being computed per client
	BotQueue       int // matches of bots only the bot pool holds
	Trusted        []*net.IPNet
}

// DefaultLimits are serve's limits when nothing is configured.
func DefaultLimits() Limits {
	return Limits{API: api.DefaultLimits(), MaxChallenges: referee.DefaultMaxChallenges,
		RunningReviews: reviews.DefaultPerClient, BotQueue: referee.DefaultBotQueue}
}

// Seeks is how the matcher pairs the seeks of Play now (docs/matchmaking.md): the rule (its
// BotAfter is how long a seek waits for humans before bots fill its table), how long a seek
// searches, how often the matcher looks, and the clock of a seek that names none.
type Seeks struct {
	Rule        matchmaking.Rule
	TTL, Every  time.Duration
	TurnSeconds int
}

// DefaultSeeks is serve's matchmaking when nothing is configured.
func DefaultSeeks() Seeks {
	return Seeks{Rule: matchmaking.DefaultRule(), TTL: seeks.DefaultTTL, Every: seeks.DefaultEvery, TurnSeconds: seeks.DefaultTurnSeconds}
}

// DefaultConfig is serve's configuration when no flag or variable is set.
func DefaultConfig() Config {
	return Config{
		Addr: ":8080", DB: sqlite.DefaultPath, Sync: "full", BusyTimeout: 10 * time.Second,
		WaitingTTL: 168 * time.Hour, SweepEvery: time.Second, BotWorkers: referee.DefaultBotWorkers(),
		ReviewWorkers: 1, MaxStreams: api.DefaultMaxStreams, MaxStreamsPerClient: api.DefaultMaxStreamsPerClient,
		CacheMiB: referee.DefaultCacheBytes >> 20, AccessSample: 100, RatingsEvery: time.Second,
		RematchTTL: referee.DefaultRematchTTL, RatedTurnSeconds: referee.DefaultRatedTurnSeconds,
		TournamentSweep: 5 * time.Second, Limits: DefaultLimits(), Seeks: DefaultSeeks(),
	}
}

// check refuses a Config that would stop a loop or a pool from running: one not begun from
// DefaultConfig.
func (c Config) check() error {
	if c.SweepEvery <= 0 || c.RatingsEvery <= 0 || c.TournamentSweep <= 0 || c.Seeks.Every <= 0 || c.Seeks.TTL <= 0 ||
		c.BotWorkers < 1 || c.ReviewWorkers < 1 || c.MaxStreams < 1 || c.MaxStreamsPerClient < 1 || c.CacheMiB <= 0 {
		return errors.New("server: the intervals, workers, streams and cache must be positive; begin from server.DefaultConfig")
	}
	return CheckSync(c.Sync)
}

// now is the clock as a function for the services that take one; nil: their own default.
func (c Config) now() func() time.Time {
	if c.Clock == nil {
		return nil
	}
	return c.Clock.Now
}

// utcNow is the clock in UTC, as the reviewer keeps it; nil: its own default.
func (c Config) utcNow() func() time.Time {
	if c.Clock == nil {
		return nil
	}
	return func() time.Time { return c.Clock.Now().UTC() }
}
