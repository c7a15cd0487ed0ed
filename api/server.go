package api

import (
	"context"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/players"
	"github.com/allfives/allfives/domain/ratings"
	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/domain/reviewer"
)

// DefaultBodyLimit is the largest request body accepted: a create request for four players
// with long names is under 1 KiB, so 64 KiB leaves room without inviting abuse.
const DefaultBodyLimit = 64 << 10

// Pinger reports whether a dependency (the database) is reachable, for /readyz.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Config wires the HTTP server.
type Config struct {
	Service *referee.MatchService
	// Reviews computes and answers the reviews of finished matches (docs/review.md, "API");
	// nil answers the review routes 503 UNAVAILABLE.
	Reviews *reviewer.Service
	// Players serves the lasting players (/api/v1/players...); nil leaves those routes out.
	Players *players.Service
	// Ratings serves the ratings and leaderboards (docs/ratings.md); nil leaves their routes
	// out, and a match's view without rating_changes.
	Ratings *ratings.Service
	// Seeks serves Play now (/api/v1/seeks, docs/matchmaking.md); nil leaves its routes out.
	Seeks *seeks.Service
	// Ready is pinged by /readyz; nil means always ready.
	Ready Pinger
	// Draining, once it returns true, makes /readyz answer 503 whatever Ready says: the
	// server is shutting down, and a load balancer should stop sending it requests before
	// its listener closes. nil never drains.
	Draining func() bool
	// Logger receives the access log and errors; nil discards them.
	Logger *slog.Logger
	// RateLimit is the requests per second allowed per client address (per /64 for IPv6, see
	// bucketOf); 0 turns it off.
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
	// Limits are the limits on what one client may ask for (limits.go; docs/operations.md,
	// "Limits"); the zero value limits nothing.
	Limits Limits
	// TrustedProxies are the proxies (load balancers) whose X-Forwarded-For names the client:
	// a request from one of them counts against the address it forwards for. Without any, the
	// connection's own address is the client's, whatever the header says.
	TrustedProxies []*net.IPNet
}

// server holds what handlers share.
type server struct {
	svc     *referee.MatchService
	reviews *reviewer.Service
	players *players.Service
	ratings *ratings.Service
	seeks   *seeks.Service
	ready   Pinger
	drain   func() bool
	log     *slog.Logger
	metrics *metrics
	limit   int64
	streams *streams
	caps    *streamCaps
	access  accessLog
	// bodiless are the POST routes that take no body (bodyless.go).
	bodiless map[string]bool
	limits   limits // limits.go
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
		svc: cfg.Service, reviews: cfg.Reviews, players: cfg.Players, ratings: cfg.Ratings, seeks: cfg.Seeks, ready: cfg.Ready, drain: cfg.Draining, log: cfg.Logger, limit: cfg.BodyLimit,
		metrics: newMetrics(cfg.Registry, cfg.Service), streams: newStreams(cfg.StreamHeartbeat),
		caps:   newStreamCaps(cfg.MaxStreams, cfg.MaxStreamsPerClient),
		access: accessLog{sample: uint64(max(1, cfg.AccessSample))},
		limits: newLimits(cfg.Limits),
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = clientAddress(cfg.TrustedProxies)
	e.HTTPErrorHandler = s.handleError
	if cfg.HeaderLimit <= 0 {
		cfg.HeaderLimit = DefaultHeaderLimit
	}
	e.Use(s.requestID, s.observe, recoverPanics)
	// CORS comes before every refusal, the rate limiter's above all: a 429 (or 413, 431) to an
	// allowed origin must carry Access-Control-Allow-Origin, or the page cannot read it nor its
	// Retry-After; and a preflight is answered here, so it never takes a token from the bucket
	// (docs/api.md, "Playing with others").
	if len(cfg.CORSOrigins) > 0 {
		e.Use(cors(cfg.CORSOrigins))
	}
	e.Use(headerLimit(cfg.HeaderLimit))
	e.Use(textParams) // pathtext.go: no id that is not text reaches a store
	e.Use(noKeyInURL) // keyurl.go: a player key in a URL is refused, never used
	if cfg.Service != nil && cfg.Service.ChecksHeads() {
		e.Use(oneHeadCheck) // headcheck.go; a store of one process's own (SQLite) skips it
	}
	if cfg.RateLimit > 0 {
		e.Use(newRateLimiter(cfg.RateLimit).middleware)
	}
	e.Use(s.bodyLimit)
	s.routes(e, cfg.Registry)
	s.bodiless = bodilessRoutes(e)
	return e
}

// clientAddress is how the server tells a request's client (the address its limits count
// against, and its access log shows). Without trusted proxies it is the connection's address:
// trusting X-Forwarded-For would let anyone choose their own bucket. With them, a request from
// a trusted proxy counts against the address that proxy forwards for: the rightmost address
// of X-Forwarded-For that is not itself a trusted proxy. Echo's own trust of loopback, link-local
// and private addresses is off: only the ranges given are trusted.
func clientAddress(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// logger is the server's logger with the request's ID attached.
func (s *server) logger(c echo.Context) *slog.Logger {
	return s.log.With("request_id", requestID(c))
}
