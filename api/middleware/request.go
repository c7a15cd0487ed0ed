// Package middleware is the HTTP layer every request passes before its handler: the request's
// ID, the access log and metrics, panics, CORS, the header and body limits, path text, player
// keys in URLs, the head check of shared stores, the client's address, and the policy of the
// Swagger UI pages.
package middleware

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/metrics"
	"github.com/allfives/allfives/api/problem"
)

// requestIDHeader is X-Request-ID as net/http keeps it (canonical), so that setting and reading
// it index the header map directly instead of canonicalizing the name again on each request.
const requestIDHeader = "X-Request-Id"

// RequestID gives every request an ID, echoed in X-Request-ID and in every log line and
// problem. A client's own ID is kept when it is short and plain, so it cannot smuggle
// anything into the logs.
func RequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !plainID(id) {
			var b [12]byte
			_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
			id = hex.EncodeToString(b[:])
		}
		// The response header is where the ID is kept for the logs and problems (RequestIDOf):
		// Echo's context store would make a map for every request.
		c.Response().Header()[requestIDHeader] = []string{id}
		return next(c)
	}
}

func plainID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return false
		}
	}
	return true
}

// RequestIDOf is the ID the RequestID middleware gave the request ("" outside it).
func RequestIDOf(c echo.Context) string {
	if v := c.Response().Header()[requestIDHeader]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Access logs each request and records its metrics.
type Access struct {
	log     *slog.Logger
	metrics *metrics.Metrics
	sample  accessLog
}

// NewAccess logs requests to log and records them in m; sample is as api.Config.AccessSample.
func NewAccess(log *slog.Logger, m *metrics.Metrics, sample int) *Access {
	return &Access{log: log, metrics: m, sample: accessLog{sample: uint64(max(1, sample))}}
}

// Observe writes the error (if any) through the error handler, then logs the request and
// records its metrics, so both see the status the client really got.
func (s *Access) Observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		took := time.Since(start)
		res, req := c.Response(), c.Request()
		route := c.Path()
		if route == "" {
			route = "unmatched" // unknown paths share one label, so they cannot explode the series
		}
		s.metrics.Observe(req.Method, route, res.Status, took)
		level := s.sample.level(accessLevel(route, res.Status), res.Status, took)
		if !s.log.Enabled(req.Context(), level) {
			return nil // nothing to format: the common case for sampled-out requests
		}
		s.log.LogAttrs(req.Context(), level, "request", slog.String("request_id", RequestIDOf(c)),
			slog.String("method", req.Method), slog.String("path", req.URL.Path), slog.String("route", route),
			slog.Int("status", res.Status), slog.Int64("bytes", res.Size),
			slog.Float64("duration_ms", float64(took.Microseconds())/1000), slog.String("remote", c.RealIP()))
		return nil
	}
}

// slowRequest is how long a request may take before the access log always keeps it.
const slowRequest = 500 * time.Millisecond

// accessLog samples the access lines of fast successful requests: formatting and writing a
// JSON line for every one of them costs a busy server a measurable share of its CPU, and says
// little that the metrics (allfives_http_requests_total, the duration histogram) do not.
type accessLog struct {
	sample uint64
	n      atomic.Uint64
}

// level demotes a fast success at info to debug, except one in sample.
func (a *accessLog) level(l slog.Level, status int, took time.Duration) slog.Level {
	if l != slog.LevelInfo || status >= 400 || took >= slowRequest || a.sample <= 1 {
		return l
	}
	if a.n.Add(1)%a.sample == 0 {
		return l
	}
	return slog.LevelDebug
}

// accessLevel picks the access-log level: server errors are worth a look; probes and scrapes
// that succeed, every few seconds, are noise outside debugging.
func accessLevel(route string, status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelError
	case status < 400 && (route == "/healthz" || route == "/readyz" || route == "/metrics"):
		return slog.LevelDebug
	}
	return slog.LevelInfo
}

// RecoverPanics turns a panic into a 500 whose details reach only the log.
func RecoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r) // net/http's own signal to abort the response; let it through
				}
				err = &problem.Panic{Value: r, Stack: debug.Stack()}
			}
		}()
		return next(c)
	}
}
