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
	"strings"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/referee"
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
	maxHeaderBytes    = 64 << 10
	// shutdownGrace is how long requests in flight get to finish after SIGINT or SIGTERM.
	shutdownGrace = 20 * time.Second
)

// serveConfig is what serve runs with.
type serveConfig struct {
	addr, db, sync, logLevel string
	rateLimit                float64
	cacheMiB                 float64
	accessSample             float64
}

func parseServe(args []string, getenv func(string) string, out io.Writer) (serveConfig, error) {
	var c serveConfig
	f := newEnvFlags("serve", getenv, out)
	addr := f.string("addr", "ALLFIVES_ADDR", ":8080", "address to listen on")
	db := f.string("db", "ALLFIVES_DB", sqlite.DefaultPath, "SQLite database file")
	sync := f.string("sync", "ALLFIVES_SYNC", "full", "durability: full, normal or off (see README)")
	level := f.string("log-level", "ALLFIVES_LOG_LEVEL", "info", "log level: debug, info, warn or error")
	limit := f.float("rate-limit", "ALLFIVES_RATE_LIMIT", 0, "requests per second per client address; 0 turns the limit off")
	cache := f.float("cache-mib", "ALLFIVES_CACHE_MIB", referee.DefaultCacheBytes>>20, "memory for matches held in memory, in MiB (an estimate)")
	sample := f.float("access-sample", "ALLFIVES_ACCESS_SAMPLE", 100, "log one in this many fast successful requests at info (1: every one); errors and slow requests always")
	if err := f.parse(args); err != nil {
		return c, err
	}
	c = serveConfig{addr: *addr, db: *db, sync: strings.ToLower(*sync), logLevel: *level, rateLimit: *limit, cacheMiB: *cache, accessSample: *sample}
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

func checkSync(s string) error {
	switch s {
	case "full", "normal", "off":
		return nil
	}
	return fmt.Errorf("sync must be full, normal or off, not %q", s)
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
	store, err := sqlite.Open(ctx, cfg.db, sqlite.Options{Sync: cfg.sync})
	if err != nil {
		ln.Close()
		return err
	}
	defer closeStore(store, &err)
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(botSeed()), CacheBytes: int64(cfg.cacheMiB * (1 << 20))})
	handler := api.New(api.Config{Service: svc, Ready: store, Logger: log, RateLimit: cfg.rateLimit, AccessSample: int(cfg.accessSample)})
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
	log.Info("listening", "addr", ln.Addr().String(), "db", cfg.db, "sync", cfg.sync, "rate_limit", cfg.rateLimit)
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
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

// botSeed seeds the bots' randomness afresh for each process, so no one can learn a bot's
// choices from another server's.
func botSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return binary.LittleEndian.Uint64(b[:])
}
