package api

import (
	"context"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/api/metrics"
	"github.com/allfives/allfives/api/middleware"
	"github.com/allfives/allfives/api/ratelimit"
	"github.com/allfives/allfives/api/sse"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/tournaments"
)

// The default caps on live streams (sse.NewCaps) and on the bytes of a request's headers
// (middleware.HeaderLimit).
const (
	DefaultMaxStreams          = sse.DefaultMaxStreams
	DefaultMaxStreamsPerClient = sse.DefaultMaxStreamsPerClient
	DefaultHeaderLimit         = middleware.DefaultHeaderLimit
)

// DefaultBodyLimit is the largest request body accepted (middleware.DefaultBodyLimit).
const DefaultBodyLimit = middleware.DefaultBodyLimit

// Pinger reports whether a dependency (the database) is reachable, for /readyz.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Config wires the HTTP server.
type Config struct {
	Service *referee.MatchService
	// Reviews computes and answers the reviews of finished matches (docs/review.md, "API");
	// nil answers the review routes 503 UNAVAILABLE.
	Reviews *reviews.Service
	// Players serves the lasting players (/api/v1/players...); nil leaves those routes out.
	Players *players.Service
	// Ratings serves the ratings and leaderboards (docs/ratings.md); nil leaves their routes
	// out, and a match's view without rating_changes.
	Ratings *ratings.Service
	// Tournaments serves the tournaments (docs/tournaments.md); nil leaves their routes out.
	Tournaments *tournaments.Service
	// Seeks serves Play now (/api/v1/seeks, docs/matchmaking.md); nil leaves its routes out.
	Seeks *seeks.Service
	// Puzzles serves the puzzles (docs/puzzles.md); nil, or no Players, leaves their routes out.
	Puzzles *puzzles.Service
	// Ready is pinged by /readyz; nil means always ready.
	Ready Pinger
	// Draining, once it returns true, makes /readyz answer 503 whatever Ready says: the
	// server is shutting down, and a load balancer should stop sending it requests before
	// its listener closes. nil never drains.
	Draining func() bool
	// Logger receives the access log and errors; nil discards them.
	Logger *slog.Logger
	// RateLimit is the requests per second allowed per client address (per /64 for IPv6, see
	// ratelimit.Bucket); 0 turns it off.
	RateLimit float64
	// BodyLimit is the largest request body in bytes; 0 means DefaultBodyLimit.
	BodyLimit int64
	// Registry receives the metrics served at /metrics; nil makes a fresh one, so that two
	// servers in one process (tests) never collide on registration.
	Registry *prometheus.Registry
	// StreamHeartbeat is how often an idle live stream sends a comment; 0 means
	// DefaultHeartbeat (15 s).
	StreamHeartbeat time.Duration
	// CORSOrigins are the browser origins (https://game.example) allowed to call the API from
	// another origin; none by default. "*" allows any origin.
	CORSOrigins []string
	// MaxStreams caps the live streams open at once (0: DefaultMaxStreams); beyond it a
	// stream is refused 503 UNAVAILABLE.
	MaxStreams int
	// MaxStreamsPerClient caps the live streams one client address may hold open (0:
	// DefaultMaxStreamsPerClient); beyond it a stream is refused 429 RATE_LIMITED.
	MaxStreamsPerClient int
	// HeaderLimit is the most bytes of headers and URL a request may carry (0:
	// DefaultHeaderLimit); beyond it 431 HEADER_TOO_LARGE.
	HeaderLimit int
	// AccessSample logs one in this many fast successful requests at info, the others at
	// debug; every error (status 400 and up) and every slow request is logged at info or
	// above. 0 and 1 log every request at info.
	AccessSample int
	// Limits are the limits on what one client may ask for (server_limits.go; docs/operations.md,
	// "Limits"); the zero value limits nothing.
	Limits Limits
	// TrustedProxies are the proxies (load balancers) whose X-Forwarded-For names the client:
	// a request from one of them counts against the address it forwards for. Without any, the
	// connection's own address is the client's, whatever the header says.
	TrustedProxies []*net.IPNet
}

// server holds what handlers share.
type server struct {
	svc *referee.MatchService
	// programs remembers which players are programs, to mark their seats (player_programs.go).
	programs programs
	reviews  *reviews.Service
	players  *players.Service
	ratings  *ratings.Service
	// tournaments serves /api/v1/tournaments (tournament*.go); nil leaves their routes out.
	tournaments *tournaments.Service
	notices     *tournamentNotices // nil without tournaments
	seeks       *seeks.Service     // Play now (seek*.go); nil leaves its routes out
	puzzles     *puzzles.Service   // puzzle*.go; nil leaves their routes out
	ready       Pinger
	drain       func() bool
	log         *slog.Logger
	metrics     *metrics.Metrics
	streams     *streams
	caps        *sse.Caps
	// bodiless are the POST routes that take no body (bodyRoutes, in routes.go).
	bodiless map[string]bool
	limits   limits // server_limits.go
}

// New returns the HTTP handler with every route of routes.go.
func New(cfg Config) *echo.Echo {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = DefaultBodyLimit
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	s := &server{
		svc: cfg.Service, reviews: cfg.Reviews, players: cfg.Players, ratings: cfg.Ratings, tournaments: cfg.Tournaments, seeks: cfg.Seeks, puzzles: cfg.Puzzles, ready: cfg.Ready, drain: cfg.Draining, log: cfg.Logger,
		metrics: metrics.New(cfg.Registry, cfg.Service), streams: newStreams(cfg.StreamHeartbeat),
		caps:   sse.NewCaps(cfg.MaxStreams, cfg.MaxStreamsPerClient),
		limits: newLimits(cfg.Limits),
	}
	if cfg.Tournaments != nil {
		s.notices = &tournamentNotices{}
		cfg.Tournaments.SetNotify(s.notices.tell)
		cfg.Tournaments.SetBotAdmission(s.limits.botMatches.admitBotTable)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = middleware.ClientAddress(cfg.TrustedProxies)
	e.HTTPErrorHandler = s.handleError
	if cfg.HeaderLimit <= 0 {
		cfg.HeaderLimit = DefaultHeaderLimit
	}
	e.Use(middleware.RequestID, middleware.NewAccess(cfg.Logger, s.metrics, cfg.AccessSample).Observe, middleware.RecoverPanics)
	// CORS comes before every refusal, the rate limiter's above all: a 429 (or 413, 431) to an
	// allowed origin must carry Access-Control-Allow-Origin, or the page cannot read it nor its
	// Retry-After; and a preflight is answered here, so it never takes a token from the bucket
	// (docs/api-matches.md, "Playing with others").
	if len(cfg.CORSOrigins) > 0 {
		e.Use(middleware.CORS(cfg.CORSOrigins))
	}
	e.Use(middleware.HeaderLimit(cfg.HeaderLimit))
	e.Use(middleware.TextParams) // no id that is not text reaches a store
	e.Use(middleware.NoKeyInURL) // a player key in a URL is refused, never used
	if cfg.Service != nil && cfg.Service.ChecksHeads() {
		e.Use(middleware.OneHeadCheck) // a store of one process's own (SQLite) skips it
	}
	if cfg.RateLimit > 0 {
		e.Use(ratelimit.New(cfg.RateLimit).Middleware)
	}
	// The seal before any check of a route's own, its body's included (match_seal.go).
	e.Use(s.sealFirst)
	e.Use(middleware.BodyLimit(cfg.BodyLimit, func(route string) bool { return s.bodiless[route] }))
	s.routes(e, cfg.Registry)
	s.bodiless = jsonbody.Bodiless(e, bodyRoutes)
	return e
}

// logger is the server's logger with the request's ID attached.
func (s *server) logger(c echo.Context) *slog.Logger {
	return s.log.With("request_id", middleware.RequestIDOf(c))
}
