package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/domain/app/referee"
)

const week = 7 * 24 * time.Hour

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestServeConfigPrecedence: a flag wins over its variable, a variable over the default; with
// nothing set, serve runs with server.DefaultConfig.
func TestServeConfigPrecedence(t *testing.T) {
	// Settings the cases leave alone take their defaults.
	def := func(level string, change func(c *server.Config)) serveConfig {
		c := serveConfig{Config: server.DefaultConfig(), logLevel: level}
		change(&c.Config)
		return c
	}
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want serveConfig
	}{
		{"defaults", nil, nil, def("info", func(c *server.Config) {})},
		{"environment", nil, map[string]string{
			"ALLFIVES_ADDR": ":9000", "ALLFIVES_DB": "/tmp/x.db", "ALLFIVES_SYNC": "NORMAL",
			"ALLFIVES_LOG_LEVEL": "debug", "ALLFIVES_RATE_LIMIT": "2.5", "ALLFIVES_CACHE_MIB": "64", "ALLFIVES_ACCESS_SAMPLE": "10",
			"ALLFIVES_CORS_ORIGINS": "https://a.example, https://b.example", "ALLFIVES_WAITING_TTL": "1h",
		}, def("debug", func(c *server.Config) {
			c.Addr, c.DB, c.Sync, c.RateLimit, c.CacheMiB, c.AccessSample = ":9000", "/tmp/x.db", "normal", 2.5, 64, 10
			c.CORSOrigins, c.WaitingTTL = []string{"https://a.example", "https://b.example"}, time.Hour
		})},
		{"flags win", []string{"--addr", ":7000", "--rate-limit", "0", "--sync", "off", "--waiting-ttl", "0", "--sweep-interval", "250ms", "--cache-mib", "32"},
			map[string]string{"ALLFIVES_ADDR": ":9000", "ALLFIVES_RATE_LIMIT": "3", "ALLFIVES_WAITING_TTL": "1h", "ALLFIVES_CACHE_MIB": "64"},
			def("info", func(c *server.Config) {
				c.Addr, c.Sync, c.WaitingTTL, c.SweepEvery, c.CacheMiB = ":7000", "off", 0, 250*time.Millisecond, 32
			})},
		{"limits", []string{"--bot-workers", "3", "--max-streams", "50", "--busy-timeout", "2s"},
			map[string]string{"ALLFIVES_MAX_STREAMS": "9", "ALLFIVES_MAX_STREAMS_PER_CLIENT": "4", "ALLFIVES_REVIEW_WORKERS": "2"},
			def("info", func(c *server.Config) {
				c.BotWorkers, c.ReviewWorkers, c.MaxStreams, c.MaxStreamsPerClient, c.BusyTimeout = 3, 2, 50, 4, 2*time.Second
			})},
		{"consent", []string{"--rematch-ttl", "30s"}, map[string]string{"ALLFIVES_RATED_TURN_SECONDS": "90"},
			def("info", func(c *server.Config) { c.RematchTTL, c.RatedTurnSeconds = 30*time.Second, 90 })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseServe(c.args, envOf(c.env), io.Discard)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
	// The defaults are serve's documented ones, not only server.DefaultConfig's.
	d := server.DefaultConfig()
	if d.Addr != ":8080" || d.DB != "allfives.db" || d.Sync != "full" || d.WaitingTTL != week || d.SweepEvery != time.Second ||
		d.BusyTimeout != 10*time.Second || d.CacheMiB != 256 || d.AccessSample != 100 || d.RatingsEvery != time.Second ||
		d.ReviewWorkers != 1 || d.BotWorkers != referee.DefaultBotWorkers() || d.MaxStreams != api.DefaultMaxStreams ||
		d.RematchTTL != referee.DefaultRematchTTL || d.RatedTurnSeconds != referee.DefaultRatedTurnSeconds ||
		d.Limits.API != api.DefaultLimits() || d.Seeks.Rule.BotAfter != 15*time.Second || d.BotSeed != 0 || d.Clock != nil {
		t.Errorf("server.DefaultConfig() = %+v", d)
	}
}

// TestBadConfigIsAnError: a bad flag or variable is an error that names it, never a silent
// fallback to the default.
func TestBadConfigIsAnError(t *testing.T) {
	cases := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--sync", "sometimes"}, nil, "sync must be"},
		{nil, map[string]string{"ALLFIVES_RATE_LIMIT": "lots"}, "ALLFIVES_RATE_LIMIT"},
		{[]string{"--rate-limit", "-1"}, nil, "rate limit"},
		{[]string{"--nope"}, nil, "not defined"},
		{[]string{"extra"}, nil, "unexpected argument"},
		{[]string{"--waiting-ttl", "soon"}, nil, "waiting-ttl"},
		{[]string{"--sweep-interval", "1ns"}, nil, "sweep-interval"},
		{[]string{"--bot-workers", "0"}, nil, "bot workers"},
		{[]string{"--review-workers", "0"}, nil, "review workers"},
		{nil, map[string]string{"ALLFIVES_MAX_STREAMS": "many"}, "ALLFIVES_MAX_STREAMS"},
		{[]string{"--busy-timeout", "soon"}, nil, "busy timeout"},
	}
	for _, c := range cases {
		_, err := parseServe(c.args, envOf(c.env), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: got %v, want an error containing %q", c.args, c.env, err, c.want)
		}
	}
	err := run(context.Background(), []string{"serve", "--log-level", "loud", "--db", t.TempDir() + "/x.db"}, envOf(nil), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "log level") {
		t.Errorf("bad log level: %v", err)
	}
	db := filepath.Join(t.TempDir(), "x.db")
	err = run(context.Background(), []string{"serve", "--addr", "bad:addr:1", "--db", db}, envOf(nil), io.Discard)
	if _, statErr := os.Stat(db); err == nil || !errors.Is(statErr, fs.ErrNotExist) {
		t.Errorf("bad address: %v; the database must not be created (%v)", err, statErr)
	}
}

// TestCommands: help, -h and --help print the commands; an unknown command is an error; -h
// after a command prints that command's flags.
func TestCommands(t *testing.T) {
	var out bytes.Buffer
	for _, help := range []string{"help", "-h", "--help"} {
		out.Reset()
		if err := run(context.Background(), []string{help}, envOf(nil), &out); err != nil || !strings.Contains(out.String(), "simulate   play matches") {
			t.Fatalf("%s: %v %q", help, err, out.String())
		}
	}
	if err := run(context.Background(), []string{"frobnicate"}, envOf(nil), io.Discard); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("unknown command: %v", err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"serve", "-h"}, envOf(nil), &out); err != nil || !strings.Contains(out.String(), "ALLFIVES_ADDR") {
		t.Fatalf("serve -h: %v %q", err, out.String())
	}
}

// TestPprofIsOffByDefault: without --pprof-addr serve asks for no profiles' listener; with it,
// for one on that address (the listener itself: internal/server's TestStartServesProfiles).
func TestPprofIsOffByDefault(t *testing.T) {
	if c, err := parseServe(nil, envOf(nil), io.Discard); err != nil || c.PprofAddr != "" {
		t.Fatalf("default pprof address %q (%v), want none", c.PprofAddr, err)
	}
	if c, err := parseServe([]string{"--pprof-addr", "127.0.0.1:0"}, envOf(nil), io.Discard); err != nil || c.PprofAddr != "127.0.0.1:0" {
		t.Fatalf("pprof address %q (%v)", c.PprofAddr, err)
	}
}
