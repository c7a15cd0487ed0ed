package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/repository/sqlite"
)

// benchServer is the real handler over a SQLite file, on a loopback port.
func benchServer(t *testing.T) string {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "bench.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	srv := httptest.NewServer(api.New(api.Config{Service: svc, Ready: store}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestBenchRunsEveryPhase: a short bench against two servers plays its moves (plain and
// keyed), reads healthz and the hot and spread matches, and prints every rate and ratio.
func TestBenchRunsEveryPhase(t *testing.T) {
	a, b := benchServer(t), benchServer(t)
	var out bytes.Buffer
	args := []string{"bench", "--addr", a, "--baseline-addr", b, "--clients", "4", "--ops", "6", "--hot", "3", "--spread", "12"}
	if err := run(context.Background(), args, func(string) string { return "" }, &out); err != nil {
		t.Fatalf("bench: %v\n%s", err, out.String())
	}
	for _, want := range []string{
		"4 clients, 6 operations per client and phase", "moves/s  p50", "moves with key", "healthz", "state,     3 hot",
		"state,    12", "moves with key / moves", "move p99 / p50", "state reads / healthz",
		"spread reads / hot reads", "moves / moves on " + b,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestBenchRefusesBadFlags: counts must be positive, and an unreachable server is an error.
func TestBenchRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--clients", "0"}, {"bench", "--spread", "0"}, {"bench", "--ops", "0", "--duration", "0s"},
		{"bench", "--addr", "127.0.0.1:1", "--ops", "1"},
	} {
		if err := run(context.Background(), args, func(string) string { return "" }, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
}
