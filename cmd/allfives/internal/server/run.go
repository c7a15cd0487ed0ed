package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres"
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
	// shutdownGrace is how long requests in flight get to finish once ctx ends.
	shutdownGrace = 20 * time.Second
)

// Run is `allfives serve`: it listens on cfg.Addr, starts the server (Start), serves it with
// the timeouts above and logs "listening" with the settings in force. When ctx ends (SIGINT or
// SIGTERM) it drains: /readyz answers 503 for cfg.Drain, then the listener closes, requests
// in flight get shutdownGrace to finish, and Close stops the rest.
func Run(ctx context.Context, cfg Config) (err error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
		cfg.Logger = log
	}
	// Listen before opening the database, so a bad address leaves no new database file behind.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	s, err := Start(ctx, cfg)
	if err != nil {
		ln.Close()
		return err
	}
	defer func() { err = errors.Join(err, s.Close()) }()
	srv := &http.Server{
		Handler:           s.Handler,
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
	s.SetDraining(true)
	if cfg.Drain > 0 {
		log.Info("draining: /readyz answers 503", "drain", cfg.Drain.String())
		time.Sleep(cfg.Drain)
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
func listeningAttrs(addr string, cfg Config) []any {
	attrs := []any{"addr", addr, "db", DBName(cfg.DB)}
	if !postgres.IsURL(cfg.DB) {
		attrs = append(attrs, "sync", cfg.Sync)
	}
	return append(attrs, "rate_limit", cfg.RateLimit, "cors_origins", strings.Join(cfg.CORSOrigins, ","),
		"waiting_ttl", cfg.WaitingTTL.String(), "bot_workers", cfg.BotWorkers, "limits", cfg.Limits.API != (api.Limits{}),
		"trusted_proxies", len(cfg.Limits.Trusted))
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
