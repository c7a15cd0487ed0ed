// Package apitest is the one way tests build the real server: Harness (New, with options: the
// store, SQLite on a file in the test's own temporary directory by default, or PostgreSQL;
// players, reviews, tournaments, Play now's matcher, clock, limits, a live HTTP server), used by
// the tests of package api, and Server, the live server the web client's, the generated client's
// and the load tool's tests talk to. It holds the one hand-moved Clock and the one SyncBuffer of
// the tests.
package apitest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/sqlite"
)

// SmallReview is the review engine's budget in these tests: a review takes a fraction of a
// second instead of seconds.
var SmallReview = analysis.Options{Rollouts: 40, HindsightNodes: 300, ParRuns: 1, ParRollouts: 20}

// Server starts the API over a fresh SQLite file (sync=normal: these tests do not cut the
// power) on a loopback port, with reviews on SmallReview's budget, tournaments driven, its bots
// seeded with seed. The server and the store close when the test ends.
func Server(t testing.TB, seed uint64) *httptest.Server {
	t.Helper()
	// Play now's matcher seats bots after 2 s rather than serve's 15, so that a test of a lone
	// seeker does not wait long (docs/matchmaking.md).
	rule := matchmaking.DefaultRule()
	rule.BotAfter = 2 * time.Second
	return New(t, Bots(seed), Reviews(nil), Tournaments(nil), Matcher(rule, 50*time.Millisecond, nil), Live(nil)).Server
}

// Bots seeds every bot strategy with seed (7 without).
func Bots(seed uint64) Option {
	return ServiceConfig(func(sc *referee.ServiceConfig) { sc.Bots = bot.Strategies(seed) })
}

// Store is what every harness needs of its store: the log of matches, and a ping for /readyz.
// Players need players.Store of it too, reviews reviews.Store: the SQLite and PostgreSQL
// stores are all of them.
type Store interface {
	referee.EventStore
	api.Pinger
}

// Harness is the real server of a test: the API over a real store, as `allfives serve` wires
// it, built by New with options. It closes when the test ends.
type Harness struct {
	// E is the router; tests serve requests through it, or through Server.
	E *echo.Echo
	// Service is the match service the router serves.
	Service *referee.MatchService
	// Players is the players' service (nil with WithoutPlayers).
	Players *players.Service
	// Reviews is the reviewer (nil without Reviews).
	Reviews *reviews.Service
	// Puzzles is the puzzles' service, made of every review stored (nil without Reviews, or
	// WithoutPlayers, or on a store that keeps no puzzles).
	Puzzles *puzzles.Service
	// Tournaments is the tournament service, wired with the players (nil with
	// WithoutPlayers); its driver runs only with Tournaments.
	Tournaments *tournaments.Service
	// Store is the store, SQLite unless Postgres or WithStore chose another.
	Store Store
	// SQLite is the store when it is the default SQLite file, else nil; Path is its file.
	SQLite *sqlite.Store
	Path   string
	// Server is the live HTTP server (Live only).
	Server *httptest.Server
	// Clock is the clock WithClock or WithPlayersClock gave, else nil.
	Clock *Clock
	// Seeks is Play now's service (nil without players, or on a store that keeps no seeks);
	// StopMatcher stops its matcher (Matcher only) before the test ends, a dead instance.
	Seeks       *seeks.Service
	StopMatcher func()

	stops []func() // what Stop undoes, in the order New did it
	once  sync.Once
}

// config is what the options set.
type config struct {
	store    Store
	postgres string // "": none; "fresh": a fresh database; else the URL of one
	sync     string
	file     string
	fileOpts *sqlite.Options
	wrap     func(referee.EventStore) referee.EventStore
	noPeople bool
	people   func(*players.Config)
	reviews  func(*reviews.Config)
	hasRev   bool
	tours    func(*tournaments.Config)
	drive    bool
	service  []func(*referee.ServiceConfig)
	server   []func(*api.Config)
	logs     io.Writer
	clock    *Clock
	live     bool
	setup    func(*http.Server)
	matcher  bool
	rule     matchmaking.Rule
	every    time.Duration
	seeks    func(*seeks.Config)
}

// Option chooses one part of a harness.
type Option func(*config)

// Postgres puts the harness on a fresh PostgreSQL database (pgtest.URL: the test skips, or
// fails in CI, without a server).
func Postgres() Option { return func(c *config) { c.postgres = "fresh" } }

// PostgresAt puts the harness on the PostgreSQL database at url, which other harnesses may
// share: the instances of one cluster.
func PostgresAt(url string) Option { return func(c *config) { c.postgres = url } }

// SQLiteFile puts the harness on the SQLite file at path, opened with opts: a file that
// outlives the harness, for a restart.
func SQLiteFile(path string, opts sqlite.Options) Option {
	return func(c *config) { c.file, c.fileOpts = path, &opts }
}

// WithStore puts the harness on store, which the test opened (and closes).
func WithStore(store Store) Option { return func(c *config) { c.store = store } }

// Sync is the SQLite file's durability (sqlite.Options.Sync); the default, normal, is enough
// for tests that do not cut the power.
func Sync(mode string) Option { return func(c *config) { c.sync = mode } }

// WrapStore gives the match service wrap(store) instead of the store: a fault injected, a
// store of another kind.
func WrapStore(wrap func(referee.EventStore) referee.EventStore) Option {
	return func(c *config) { c.wrap = wrap }
}

// WithoutPlayers leaves the lasting players out: no /players routes.
func WithoutPlayers() Option { return func(c *config) { c.noPeople = true } }

// PlayersConfig changes the players' service config (its clock, say).
func PlayersConfig(fn func(*players.Config)) Option { return func(c *config) { c.people = fn } }

// Reviews adds a reviewer of SmallReview's budget; fn, if not nil, changes its config.
func Reviews(fn func(*reviews.Config)) Option {
	return func(c *config) { c.hasRev, c.reviews = true, fn }
}

// ServiceConfig changes the match service's config (bots, clock, TTLs).
func ServiceConfig(fn func(*referee.ServiceConfig)) Option {
	return func(c *config) { c.service = append(c.service, fn) }
}

// ServerConfig changes the server's config (heartbeat, caps, CORS).
func ServerConfig(fn func(*api.Config)) Option {
	return func(c *config) { c.server = append(c.server, fn) }
}

// WithClock runs the match service on clock: deadlines come when the test says.
func WithClock(clock *Clock) Option {
	return func(c *config) {
		c.clock = clock
		c.service = append(c.service, func(sc *referee.ServiceConfig) { sc.Clock = clock })
	}
}

// WithPlayersClock runs the players' service (its tickets and keys) on clock.
func WithPlayersClock(clock *Clock) Option {
	return func(c *config) {
		c.clock = clock
		prev := c.people
		c.people = func(pc *players.Config) {
			if prev != nil {
				prev(pc)
			}
			pc.Now = clock.Now
		}
	}
}

// Limits sets the limits on what one client may ask for; a harness limits nothing without.
func Limits(l api.Limits) Option { return ServerConfig(func(ac *api.Config) { ac.Limits = l }) }

// RateLimit sets the requests per second allowed per client address.
func RateLimit(perSecond float64) Option {
	return ServerConfig(func(ac *api.Config) { ac.RateLimit = perSecond })
}

// Ready is what /readyz pings instead of the store.
func Ready(p api.Pinger) Option { return ServerConfig(func(ac *api.Config) { ac.Ready = p }) }

// Logs writes the server's log, debug and up, as JSON lines into w.
func Logs(w io.Writer) Option { return func(c *config) { c.logs = w } }

// Live serves the router on a loopback port (Harness.Server); setup, if not nil, changes the
// http.Server before it starts (its timeouts).
func Live(setup func(*http.Server)) Option { return func(c *config) { c.live, c.setup = true, setup } }

// New builds the harness: the API over a SQLite file in t's temporary directory unless an
// option chose another store, with every bot (seeded 7) and the lasting players.
func New(t testing.TB, opts ...Option) *Harness {
	t.Helper()
	c := config{sync: "normal"}
	for _, o := range opts {
		o(&c)
	}
	h := &Harness{Store: c.store, Clock: c.clock}
	t.Cleanup(h.Stop)
	switch {
	case h.Store != nil:
	case c.postgres != "":
		url := c.postgres
		if url == "fresh" {
			url = pgtest.URL(t)
		}
		store, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 8})
		if err != nil {
			t.Fatal(err)
		}
		h.onStop(func() { store.Close() })
		h.Store = store
	default:
		h.Path = c.file
		opts := sqlite.Options{Sync: c.sync}
		if c.fileOpts != nil {
			opts = *c.fileOpts
		}
		if h.Path == "" {
			h.Path = filepath.Join(t.TempDir(), "allfives.db")
		}
		store, err := sqlite.Open(context.Background(), h.Path, opts)
		if err != nil {
			t.Fatal(err)
		}
		h.onStop(func() { store.Close() })
		h.Store, h.SQLite = store, store
	}
	sc := referee.ServiceConfig{Store: h.Store, Bots: bot.Strategies(7)}
	if c.wrap != nil {
		sc.Store = c.wrap(h.Store)
	}
	if !c.noPeople {
		pc := players.Config{Store: h.Store.(players.Store)}
		if c.people != nil {
			c.people(&pc)
		}
		h.Players = players.NewService(pc)
		sc.Players = h.Players
	}
	for _, fn := range c.service {
		fn(&sc)
	}
	h.Service = referee.NewMatchService(sc)
	h.onStop(h.Service.Close)
	ac := api.Config{Service: h.Service, Players: h.Players, Ready: h.Store}
	if c.hasRev {
		rc := reviews.Config{Store: h.Store.(reviews.Store), Matches: h.Service, Options: SmallReview}
		if ps, ok := h.Store.(puzzles.Store); ok && h.Players != nil {
			h.Puzzles = puzzles.New(puzzles.Config{Store: ps, Sealer: h.Service})
			rc.Reviewed, ac.Puzzles = h.Puzzles.Reviewed, h.Puzzles
		}
		if c.reviews != nil {
			c.reviews(&rc)
		}
		h.Reviews = reviews.New(rc)
		h.onStop(h.Reviews.Close)
		ac.Reviews = h.Reviews
	}
	h.wireTournaments(&c, &ac)
	h.wireSeeks(t, &c, &ac)
	if c.logs != nil {
		ac.Logger = slog.New(slog.NewJSONHandler(c.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	for _, fn := range c.server {
		fn(&ac)
	}
	h.E = api.New(ac)
	if c.live {
		h.Server = httptest.NewUnstartedServer(h.E)
		if c.setup != nil {
			c.setup(h.Server.Config)
		}
		h.Server.Start()
		h.onStop(h.Server.Close)
	}
	return h
}
