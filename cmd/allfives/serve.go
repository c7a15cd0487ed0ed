package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/sqlite"
)

// The server's timeouts: a client that is slow to send its headers or body, or to read the
// answer, or that idles on a kept-alive connection, cannot hold a connection for longer.
// The live stream (GET .../stream) must outlive writeTimeout: it extends its own write
// deadline per event with http.ResponseController.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 2 * time.Minute
	// maxHeaderBytes is net/http's own limit, above the API's (api.DefaultHeaderLimit), so
	// that most oversize headers get the API's problem+json 431 rather than net/http's text.
	maxHeaderBytes = 1 << 20
	// shutdownGrace is how long requests in flight get to finish after SIGINT or SIGTERM.
	shutdownGrace = 20 * time.Second
)

// serveConfig is what serve runs with.
type serveConfig struct {
	addr, db, sync, logLevel string
	rateLimit                float64
	corsOrigins              []string
	waitingTTL, sweepEvery   time.Duration
	botWorkers               int
	reviewWorkers            int
	maxStreams, perClient    int
	busyTimeout              time.Duration
	cacheMiB                 float64
	accessSample             float64
	listenDB                 string        // a direct PostgreSQL URL for LISTEN, when db is a pooler's
	drain                    time.Duration // how long /readyz says 503 before shutdown closes the listener
	pprofAddr                string
	ratingsEvery             time.Duration // how often the projection looks for matches to rate
	// Consent and a clock for rated play (docs/operations.md, "Rematch offers and rated clocks").
	rematchTTL       time.Duration // how long a rematch offer stands
	ratedTurnSeconds int           // the clock of a rated match created without one
	limits           limitsConfig  // servelimits.go
	seeks            seekConfig    // seekflags.go
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
	c = serveConfig{addr: *addr, db: *db, sync: strings.ToLower(*sync), logLevel: *level, rateLimit: *limit,
		botWorkers: *workers, reviewWorkers: *reviewWorkers, maxStreams: *streams, perClient: *perClient, cacheMiB: *cache, accessSample: *sample,
		listenDB: *listenDB, pprofAddr: *pprofAddr}
	if c.rematchTTL, c.ratedTurnSeconds, err = parseConsent(*rematchTTL, *ratedTurn); err != nil {
		return c, err
	}
	if c.limits, err = limits(); err != nil {
		return c, err
	}
	if c.seeks, err = seekCfg(); err != nil {
		return c, err
	}
	if c.drain, err = time.ParseDuration(*drain); err != nil || c.drain < 0 {
		return c, fmt.Errorf("drain must be a duration such as 5s or 0, not %q", *drain)
	}
	if c.listenDB != "" && (!postgres.IsURL(c.db) || !postgres.IsURL(c.listenDB)) {
		return c, fmt.Errorf("listen-db must be a postgres:// URL, and --db one too")
	}
	for _, o := range strings.Split(*origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			c.corsOrigins = append(c.corsOrigins, o)
		}
	}
	if c.waitingTTL, err = time.ParseDuration(*ttl); err != nil || c.waitingTTL < 0 {
		return c, fmt.Errorf("waiting-ttl must be a duration such as 168h or 0, not %q", *ttl)
	}
	if c.ratingsEvery, err = time.ParseDuration(*ratingsEvery); err != nil || c.ratingsEvery < 10*time.Millisecond {
		return c, fmt.Errorf("ratings-interval must be a duration of 10ms or more, not %q", *ratingsEvery)
	}
	if c.sweepEvery, err = time.ParseDuration(*sweep); err != nil || c.sweepEvery < 10*time.Millisecond {
		return c, fmt.Errorf("sweep-interval must be a duration of 10ms or more, not %q", *sweep)
	}
	if c.busyTimeout, err = time.ParseDuration(*busy); err != nil || c.busyTimeout <= 0 {
		return c, fmt.Errorf("busy timeout must be a positive duration such as 10s, not %q", *busy)
	}
	if c.botWorkers < 1 || c.maxStreams < 1 || c.perClient < 1 {
		return c, fmt.Errorf("bot workers, max streams and max streams per client must be 1 or more")
	}
	if c.reviewWorkers < 1 {
		return c, fmt.Errorf("review workers must be 1 or more, not %d", c.reviewWorkers)
	}
	if c.accessSample < 1 || c.accessSample != float64(int(c.accessSample)) {
		return c, fmt.Errorf("access-sample must be a whole number, 1 or more, not %v", c.accessSample)
	}
	if c.cacheMiB < 1 {
		return c, fmt.Errorf("cache-mib must be at least 1, not %v", c.cacheMiB)
	}
	if err := checkSync(c.sync); err != nil {
		return c, err
	}
	if c.rateLimit < 0 {
		return c, fmt.Errorf("rate limit must be 0 (off) or more, not %v", c.rateLimit)
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
// finish, and closes the database.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) (err error) {
	cfg, err := parseServe(args, getenv, stdout)
	if err != nil {
		return helpOK(err)
	}
	log, err := newLogger(stdout, cfg.logLevel)
	if err != nil {
		return err
	}
	// Listen before opening the database, so a bad address leaves no new database file behind.
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	store, err := openStore(ctx, storeConfig{db: cfg.db, listenDB: cfg.listenDB, sync: cfg.sync, busyTimeout: cfg.busyTimeout, log: log, migrate: true})
	if err != nil {
		ln.Close()
		return err
	}
	defer closeStore(store, &err)
	ttl := cfg.waitingTTL
	if ttl == 0 {
		ttl = -1 // never: the service reads 0 as its default
	}
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{
		Store: store, Bots: bot.Strategies(botSeed()), WaitingTTL: ttl, BotWorkers: cfg.botWorkers, Logger: log,
		CacheBytes: int64(cfg.cacheMiB * (1 << 20)), Players: people,
		RematchTTL: cfg.rematchTTL, RatedTurnSeconds: cfg.ratedTurnSeconds,
		BotQueue: cfg.limits.botQueue, MaxChallenges: cfg.limits.maxChallenges,
	})
	defer svc.Close() // runs before the store closes: the workers stop first
	reg := prometheus.NewRegistry()
	follow, stopFollowing := context.WithCancel(context.Background())
	following := shareStore(follow, store, svc, reg, log)
	defer func() { stopFollowing(); following() }() // before the store closes
	go resumeBots(ctx, svc, log)
	if cfg.pprofAddr != "" {
		stop, err := servePprof(cfg.pprofAddr, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	reviews := reviews.New(reviews.Config{Store: store, Matches: svc, Workers: cfg.reviewWorkers, PerClient: cfg.limits.runningReviews, Logger: log})
	defer reviews.Close() // before the service and the store: a review in flight is abandoned, stored running
	// The ratings' projection: every instance runs one; the store lets one at a time rate.
	rateCtx, stopRating := context.WithCancel(context.Background())
	rated := make(chan struct{})
	go func() {
		defer close(rated)
		proj := ratings.NewProjector(ratings.Config{Store: store, Logs: store, Logger: log})
		proj.Run(rateCtx, cfg.ratingsEvery, func(err error) { log.Error("rate matches", "err", err) })
	}()
	defer func() { stopRating(); <-rated }() // before the store closes
	// Play now's matcher (seekflags.go); it stops before the store closes.
	matcher, stopMatching := startSeeks(cfg.seeks, store, svc, people, log)
	defer stopMatching()
	var draining atomic.Bool
	rs := ratings.NewService(store)
	tourneys, stopTourneys := startTournaments(store, svc, people, rs, log) // tournament_wire.go
	defer stopTourneys()                                                    // before the store closes
	handler := api.New(api.Config{Service: svc, Reviews: reviews, Players: people, Ratings: rs, Tournaments: tourneys, Seeks: matcher, Ready: store, Draining: draining.Load, Logger: log, RateLimit: cfg.rateLimit, Registry: reg,
		CORSOrigins: cfg.corsOrigins, MaxStreams: cfg.maxStreams, MaxStreamsPerClient: cfg.perClient,
		AccessSample: int(cfg.accessSample), Limits: cfg.limits.api, TrustedProxies: cfg.limits.trusted})
	// The clock: one sweeper per instance; the expected version settles races with others.
	sweepCtx, stopSweep := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		svc.RunSweeper(sweepCtx, cfg.sweepEvery, func(err error) { log.Error("clock sweep", "err", err) })
	}()
	defer func() { stopSweep(); <-swept }()
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("listening", listeningAttrs(ln.Addr().String(), cfg)...)
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Readiness goes first, the listener after: a load balancer polling /readyz stops sending
	// new requests before any is refused (docs/operations.md, "The load balancer").
	draining.Store(true)
	if cfg.drain > 0 {
		log.Info("draining: /readyz answers 503", "drain", cfg.drain.String())
		time.Sleep(cfg.drain)
	}
	log.Info("shutting down: finishing requests in flight", "grace", shutdownGrace.String())
	grace, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("stopped")
	return nil
}

// listeningAttrs are the start-up line's fields: the settings in force, and of the
// durability only what applies to the database's engine (SQLite's --sync; PostgreSQL's is
// the server's synchronous_commit, which serve does not set).
func listeningAttrs(addr string, cfg serveConfig) []any {
	attrs := []any{"addr", addr, "db", dbName(cfg.db)}
	if !postgres.IsURL(cfg.db) {
		attrs = append(attrs, "sync", cfg.sync)
	}
	return append(attrs, "rate_limit", cfg.rateLimit, "cors_origins", strings.Join(cfg.corsOrigins, ","),
		"waiting_ttl", cfg.waitingTTL.String(), "bot_workers", cfg.botWorkers, "limits", cfg.limits.api != (api.Limits{}),
		"trusted_proxies", len(cfg.limits.trusted))
}

// resumeBots hands the bot pool the matches of bots only a previous run left unfinished.
func resumeBots(ctx context.Context, svc *referee.MatchService, log *slog.Logger) {
	n, err := svc.ResumeBots(ctx)
	if err != nil && ctx.Err() == nil {
		log.Error("resume matches of bots", "err", err)
	}
	if n > 0 {
		log.Info("resumed matches of bots", "matches", n)
	}
}

// botSeed seeds the bots' randomness afresh for each process, so no one can learn a bot's
// choices from another server's.
func botSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return binary.LittleEndian.Uint64(b[:])
}

// servePprof serves Go's profiles (net/http/pprof) on a listener of its own, apart from the
// API's routes and limits, for measuring a server under load (docs/performance.md). It returns
// the function that closes it.
func servePprof(addr string, log *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pprof-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout}
	go func() { _ = srv.Serve(ln) }()
	log.Info("serving profiles", "pprof_addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}
