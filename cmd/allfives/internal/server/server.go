// Package server wires the All Fives server exactly as `allfives serve` runs it: the store
// (SQLite or PostgreSQL, migrated), the match service with its bot pool and clock, the
// players, the reviewer, the ratings' projection, Play now's matcher, the tournaments and their
// driver, the clock's sweeper, the limits and the live streams, behind the API's router. serve
// parses its flags into a Config and calls Run; tests call Start to get the same server in
// process.
//
// A test builds the server as serve does, every feature on, from DefaultConfig, changing only
// what a test may inject: the database, the clock (Clock: the match service's, the players'
// tickets and keys, the reviewer's, the matcher's and the tournaments'), the bots' seed
// (BotSeed), the source of seeds, ids and tokens (Random), short TTLs and intervals (WaitingTTL, RematchTTL, SweepEvery, RatingsEvery,
// TournamentSweep, Seeks.Every, Seeks.Rule.BotAfter), a small review budget (Review) and the
// limits (Limits{} is serve --limits off):
//
//	cfg := server.DefaultConfig()
//	cfg.DB = filepath.Join(t.TempDir(), "allfives.db") // or a postgres:// URL (pgtest.URL)
//	cfg.Sync = "normal"
//	cfg.Limits = server.Limits{}
//	cfg.Clock = clock // a referee.Clock the test moves, such as apitest.NewClock's
//	cfg.BotSeed = 7
//	cfg.Review = apitest.SmallReview
//	cfg.SweepEvery, cfg.RatingsEvery = 20*time.Millisecond, 20*time.Millisecond
//	s, err := server.Start(context.Background(), cfg)
//	if err != nil {
//		t.Fatal(err)
//	}
//	t.Cleanup(func() { s.Close() })
//	srv := httptest.NewServer(s.Handler) // or s.Handler.ServeHTTP(rec, req)
//
// s.Echo.Routes() lists every route the router serves; s.Matches, s.Players, s.Reviews,
// s.Ratings, s.Tournaments, s.Seeks and s.Store are the services and the store behind it (a
// test may call s.Matches.Sweep itself after moving the clock, with SweepEvery long enough
// that the sweeper does not race it). Close stops the background work and closes the store,
// in the order serve does on shutdown; Run is serve itself, on a listener.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/bot"
)

// Server is a started server: its router over its services and store. It serves nothing on
// its own: Run serves it on a listener, a test through Handler.
type Server struct {
	// Handler is the API's router as an http.Handler; Echo is the same router, whose Routes
	// list every route it serves.
	Handler http.Handler
	Echo    *echo.Echo
	// Store is the database, opened and migrated by Start and closed by Close.
	Store Store
	// The services the router serves; Tournaments is nil on a store that keeps none.
	Matches     *referee.MatchService
	Players     *players.Service
	Reviews     *reviews.Service
	Ratings     *ratings.Service
	Tournaments *tournaments.Service
	Seeks       *seeks.Service
	Puzzles     *puzzles.Service
	// Registry holds the metrics /metrics serves.
	Registry *prometheus.Registry

	log      *slog.Logger
	draining atomic.Bool
	stops    []func() // undone by Close, last first
	closed   atomic.Bool
}

// Start opens and migrates the store cfg names and starts everything serve runs on it, with
// its background work (the bot pool resuming unfinished matches of bots, the projection, the
// matcher, the tournaments' driver, the sweeper, and following other instances' appends on
// PostgreSQL). ctx bounds the bots' resumption and the sweeper; Close stops everything. On an
// error nothing is left running and the store is closed.
func Start(ctx context.Context, cfg Config) (s *Server, err error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	store, err := OpenStore(ctx, StoreConfig{DB: cfg.DB, ListenDB: cfg.ListenDB, Sync: cfg.Sync, BusyTimeout: cfg.BusyTimeout, Log: log, Migrate: true})
	if err != nil {
		return nil, err
	}
	s = &Server{Store: store, log: log, Registry: prometheus.NewRegistry()}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Close())
		}
	}()
	s.Players = players.NewService(players.Config{Store: store, Now: cfg.now()})
	ttl := cfg.WaitingTTL
	if ttl == 0 {
		ttl = -1 // never: the service reads 0 as its default
	}
	seed := cfg.BotSeed
	if seed == 0 {
		seed = botSeed()
	}
	s.Matches = referee.NewMatchService(referee.ServiceConfig{
		Store: store, Clock: cfg.Clock, Random: cfg.Random, Bots: bot.Strategies(seed), WaitingTTL: ttl, BotWorkers: cfg.BotWorkers, Logger: log,
		CacheBytes: int64(cfg.CacheMiB * (1 << 20)), Players: s.Players,
		RematchTTL: cfg.RematchTTL, RatedTurnSeconds: cfg.RatedTurnSeconds,
		BotQueue: cfg.Limits.BotQueue, MaxChallenges: cfg.Limits.MaxChallenges,
	})
	s.onClose(s.Matches.Close) // the workers stop before the store closes
	s.onClose(shareStore(store, s.Matches, s.Registry, log))
	go resumeBots(ctx, s.Matches, log)
	if cfg.PprofAddr != "" {
		stop, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			return nil, err
		}
		s.onClose(stop)
	}
	s.Puzzles = puzzles.New(puzzles.Config{Store: store, Sealer: s.Matches, Clock: cfg.utcNow(), Logger: log})
	s.Reviews = reviews.New(reviews.Config{Store: store, Matches: s.Matches, Workers: cfg.ReviewWorkers, PerClient: cfg.Limits.RunningReviews,
		Options: cfg.Review, Reviewed: s.Puzzles.Reviewed, Clock: cfg.utcNow(), Logger: log})
	s.onClose(s.Reviews.Close) // a review in flight is abandoned, stored running
	s.onClose(startProjector(store, cfg.RatingsEvery, log))
	var stop func()
	s.Seeks, stop = startSeeks(cfg, store, s.Matches, s.Players, log)
	s.onClose(stop)
	s.Ratings = ratings.NewService(store)
	s.Tournaments, stop = startTournaments(cfg, store, s.Matches, s.Players, s.Ratings, log)
	s.onClose(stop)
	s.Echo = api.New(api.Config{Service: s.Matches, Reviews: s.Reviews, Players: s.Players, Ratings: s.Ratings, Tournaments: s.Tournaments, Seeks: s.Seeks, Puzzles: s.Puzzles,
		Ready: store, Draining: s.draining.Load, Logger: log, RateLimit: cfg.RateLimit, Registry: s.Registry,
		CORSOrigins: cfg.CORSOrigins, MaxStreams: cfg.MaxStreams, MaxStreamsPerClient: cfg.MaxStreamsPerClient,
		AccessSample: int(cfg.AccessSample), Limits: cfg.Limits.API, TrustedProxies: cfg.Limits.Trusted})
	s.Handler = s.Echo
	s.onClose(startSweeper(ctx, s.Matches, cfg.SweepEvery, log))
	return s, nil
}

// onClose adds what Close undoes; the last added is undone first.
func (s *Server) onClose(stop func()) { s.stops = append(s.stops, stop) }

// Close stops the server's background work, last started first (the sweeper, the
// tournaments' driver, the matcher, the projection, the reviewer, the profiles' listener,
// following other instances, the match service), then closes the store; a failure to close
// it (the last WAL checkpoint, which a full disk can refuse) is its error. A second Close
// does nothing.
func (s *Server) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	if err := s.Store.Close(); err != nil {
		return fmt.Errorf("close database: %w", err)
	}
	return nil
}

// SetDraining makes /readyz answer 503 (true), as serve does on SIGTERM before its listener
// closes, so a load balancer stops sending first.
func (s *Server) SetDraining(on bool) { s.draining.Store(on) }
