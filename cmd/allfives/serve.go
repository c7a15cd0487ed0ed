package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/sqlite"
)

// serveConfig is what serve runs with: the server's configuration and the log's level.
type serveConfig struct {
	server.Config
	logLevel string
}

func parseServe(args []string, getenv func(string) string, out io.Writer) (c serveConfig, err error) {
	f := newEnvFlags("serve", getenv, out)
	addr := f.string("addr", "ALLFIVES_ADDR", ":8080", "address to listen on")
	db := f.string("db", "ALLFIVES_DB", sqlite.DefaultPath, dbHelp)
	sync := f.string("sync", "ALLFIVES_SYNC", "full", "SQLite durability: full, normal or off (see docs/operations.md, \"Durability\"); PostgreSQL's is the server's synchronous_commit")
	level := f.string("log-level", "ALLFIVES_LOG_LEVEL", "info", "log level: debug, info, warn or error")
	limit := f.float("rate-limit", "ALLFIVES_RATE_LIMIT", 0, "requests per second per client address; 0 turns the limit off")
	origins := f.string("cors-origins", "ALLFIVES_CORS_ORIGINS", "", "comma-separated browser origins allowed to call the API (https://play.example); none by default")
	ttl := f.string("waiting-ttl", "ALLFIVES_WAITING_TTL", "168h", "how long a waiting match's open seats may stay empty before it expires; 0 never")
	sweep := f.string("sweep-interval", "ALLFIVES_SWEEP_INTERVAL", "1s", "how often the clock looks for due turns and waiting matches to expire")
	workers := f.int("bot-workers", "ALLFIVES_BOT_WORKERS", referee.DefaultBotWorkers(), "workers playing matches of bots only, off the request path; unset, this machine's CPUs less one (at least 1), so a CPU stays free for requests")
	reviewWorkers := f.int("review-workers", "ALLFIVES_REVIEW_WORKERS", 1, "workers computing game reviews, off the request path (docs/review.md)")
	streams := f.int("max-streams", "ALLFIVES_MAX_STREAMS", api.DefaultMaxStreams, "live streams open at once; beyond it 503 UNAVAILABLE")
	perClient := f.int("max-streams-per-client", "ALLFIVES_MAX_STREAMS_PER_CLIENT", api.DefaultMaxStreamsPerClient, "live streams per client address; beyond it 429 RATE_LIMITED")
	busy := f.string("busy-timeout", "ALLFIVES_BUSY_TIMEOUT", "10s", "how long a write waits for another process's lock on the database before 503 STORE_BUSY")
	cache := f.float("cache-mib", "ALLFIVES_CACHE_MIB", referee.DefaultCacheBytes>>20, "memory for matches held in memory, in MiB (an estimate)")
	sample := f.float("access-sample", "ALLFIVES_ACCESS_SAMPLE", 100, "log one in this many fast successful requests at info (1: every one); errors and slow requests always")
	listenDB := f.string("listen-db", "ALLFIVES_LISTEN_DB", "", "PostgreSQL URL straight to the server, for LISTEN, when --db is a pooler in transaction mode (see docs/operations.md, \"Connection pooler\")")
	drain := f.string("drain", "ALLFIVES_DRAIN", "0s", "on SIGTERM, how long /readyz answers 503 before the listener closes, so a load balancer stops sending first")
	pprofAddr := f.string("pprof-addr", "ALLFIVES_PPROF_ADDR", "", "address of a listener of its own serving Go's profiles at /debug/pprof/ (127.0.0.1:6060); off by default, never on the API's address")
	ratingsEvery := f.string("ratings-interval", "ALLFIVES_RATINGS_INTERVAL", "1s", "how often the ratings' projection looks for rated matches that ended (docs/ratings.md, \"The projection\")")
	rematchTTL := f.string("rematch-ttl", "ALLFIVES_REMATCH_TTL", "10m", "how long a rematch offer waits for the other players to accept before it is cancelled (10s to 168h)")
	ratedTurn := f.int("rated-turn-seconds", "ALLFIVES_RATED_TURN_SECONDS", referee.DefaultRatedTurnSeconds, "the clock, in seconds per turn, of a rated match created without turn_seconds (10 to 604800)")
	limits := limitFlags(f)
	seekCfg := seekFlags(f)
	if err := f.parse(args); err != nil {
		return c, err
	}
	c = serveConfig{Config: server.DefaultConfig(), logLevel: *level}
	c.Addr, c.DB, c.Sync, c.RateLimit = *addr, *db, strings.ToLower(*sync), *limit
	c.BotWorkers, c.ReviewWorkers, c.MaxStreams, c.MaxStreamsPerClient = *workers, *reviewWorkers, *streams, *perClient
	c.CacheMiB, c.AccessSample, c.ListenDB, c.PprofAddr = *cache, *sample, *listenDB, *pprofAddr
	if c.RematchTTL, c.RatedTurnSeconds, err = parseConsent(*rematchTTL, *ratedTurn); err != nil {
		return c, err
	}
	if c.Limits, err = limits(); err != nil {
		return c, err
	}
	if c.Seeks, err = seekCfg(); err != nil {
		return c, err
	}
	if c.Drain, err = time.ParseDuration(*drain); err != nil || c.Drain < 0 {
		return c, fmt.Errorf("drain must be a duration such as 5s or 0, not %q", *drain)
	}
	if c.ListenDB != "" && (!postgres.IsURL(c.DB) || !postgres.IsURL(c.ListenDB)) {
		return c, fmt.Errorf("listen-db must be a postgres:// URL, and --db one too")
	}
	for _, o := range strings.Split(*origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			c.CORSOrigins = append(c.CORSOrigins, o)
		}
	}
	if c.WaitingTTL, err = time.ParseDuration(*ttl); err != nil || c.WaitingTTL < 0 {
		return c, fmt.Errorf("waiting-ttl must be a duration such as 168h or 0, not %q", *ttl)
	}
	if c.RatingsEvery, err = time.ParseDuration(*ratingsEvery); err != nil || c.RatingsEvery < 10*time.Millisecond {
		return c, fmt.Errorf("ratings-interval must be a duration of 10ms or more, not %q", *ratingsEvery)
	}
	if c.SweepEvery, err = time.ParseDuration(*sweep); err != nil || c.SweepEvery < 10*time.Millisecond {
		return c, fmt.Errorf("sweep-interval must be a duration of 10ms or more, not %q", *sweep)
	}
	if c.BusyTimeout, err = time.ParseDuration(*busy); err != nil || c.BusyTimeout <= 0 {
		return c, fmt.Errorf("busy timeout must be a positive duration such as 10s, not %q", *busy)
	}
	if c.BotWorkers < 1 || c.MaxStreams < 1 || c.MaxStreamsPerClient < 1 {
		return c, fmt.Errorf("bot workers, max streams and max streams per client must be 1 or more")
	}
	if c.ReviewWorkers < 1 {
		return c, fmt.Errorf("review workers must be 1 or more, not %d", c.ReviewWorkers)
	}
	if c.AccessSample < 1 || c.AccessSample != float64(int(c.AccessSample)) {
		return c, fmt.Errorf("access-sample must be a whole number, 1 or more, not %v", c.AccessSample)
	}
	if c.CacheMiB < 1 {
		return c, fmt.Errorf("cache-mib must be at least 1, not %v", c.CacheMiB)
	}
	if err := server.CheckSync(c.Sync); err != nil {
		return c, err
	}
	if c.RateLimit < 0 {
		return c, fmt.Errorf("rate limit must be 0 (off) or more, not %v", c.RateLimit)
	}
	return c, nil
}

// parseConsent checks the rematch TTL and the rated clock: an offer's time and a clock the
// rules accept (domain.MinOfferSeconds..MaxOfferSeconds, MinTurnSeconds..MaxTurnSeconds).
func parseConsent(ttl string, turn int) (time.Duration, int, error) {
	d, err := time.ParseDuration(ttl)
	if err != nil || d%time.Second != 0 || d < domain.MinOfferSeconds*time.Second || d > domain.MaxOfferSeconds*time.Second {
		return 0, 0, fmt.Errorf("rematch-ttl must be whole seconds from %ds to %dh, such as 10m, not %q", domain.MinOfferSeconds, domain.MaxOfferSeconds/3600, ttl)
	}
	if turn < domain.MinTurnSeconds || turn > domain.MaxTurnSeconds {
		return 0, 0, fmt.Errorf("rated-turn-seconds must be %d to %d, not %d", domain.MinTurnSeconds, domain.MaxTurnSeconds, turn)
	}
	return d, turn, nil
}

// runServe serves the API until ctx ends, then stops accepting, lets requests in flight
// finish, and closes the database (server.Run).
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, err := parseServe(args, getenv, stdout)
	if err != nil {
		return helpOK(err)
	}
	if cfg.Logger, err = newLogger(stdout, cfg.logLevel); err != nil {
		return err
	}
	return server.Run(ctx, cfg.Config)
}

// seekFlags declares the matchmaking flags on f; the func it returns reads them once f is
// parsed.
func seekFlags(f *envFlags) func() (server.Seeks, error) {
	d := server.DefaultSeeks().Rule
	window := f.float("seek-window", "ALLFIVES_SEEK_WINDOW", d.Window, "the rating gap a new seek accepts (docs/matchmaking.md)")
	growth := f.float("seek-window-growth", "ALLFIVES_SEEK_WINDOW_GROWTH", d.Growth, "how much a seek's rating window widens per second of waiting")
	most := f.float("seek-window-max", "ALLFIVES_SEEK_WINDOW_MAX", d.MaxWindow, "the widest a seek's rating window grows; 0: no cap")
	botAfter := f.string("seek-bot-after", "ALLFIVES_SEEK_BOT_AFTER", "15s", "how long a seek waits for humans before the bots nearest its rating fill its table; 0: never")
	ttl := f.string("seek-ttl", "ALLFIVES_SEEK_TTL", "10m", "how long a seek searches before it expires")
	every := f.string("seek-interval", "ALLFIVES_SEEK_INTERVAL", "100ms", "how often the matcher looks at the pool (a seek made on this instance wakes it at once)")
	turn := f.int("seek-turn-seconds", "ALLFIVES_SEEK_TURN_SECONDS", seeks.DefaultTurnSeconds, "the clock, in seconds per turn, of a seek made without turn_seconds (10 to 604800)")
	return func() (c server.Seeks, err error) {
		c.Rule = matchmaking.Rule{Window: *window, Growth: *growth, MaxWindow: *most}
		if c.Rule.Window < 0 || c.Rule.Growth < 0 || c.Rule.MaxWindow < 0 {
			return c, fmt.Errorf("seek-window, seek-window-growth and seek-window-max must be 0 or more")
		}
		if c.Rule.BotAfter, err = time.ParseDuration(*botAfter); err != nil || c.Rule.BotAfter < 0 {
			return c, fmt.Errorf("seek-bot-after must be a duration such as 15s, or 0, not %q", *botAfter)
		}
		if c.TTL, err = time.ParseDuration(*ttl); err != nil || c.TTL < time.Second {
			return c, fmt.Errorf("seek-ttl must be a duration of 1s or more, not %q", *ttl)
		}
		if c.Every, err = time.ParseDuration(*every); err != nil || c.Every < 10*time.Millisecond {
			return c, fmt.Errorf("seek-interval must be a duration of 10ms or more, not %q", *every)
		}
		if *turn < domain.MinTurnSeconds || *turn > domain.MaxTurnSeconds {
			return c, fmt.Errorf("seek-turn-seconds must be %d to %d, not %d", domain.MinTurnSeconds, domain.MaxTurnSeconds, *turn)
		}
		c.TurnSeconds = *turn
		return c, nil
	}
}
