package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/allfives/allfives/api/apitest"
)

// benchServer is the real handler over a SQLite file, on a loopback port.
func benchServer(t *testing.T) string {
	t.Helper()
	return apitest.Server(t, 1).URL
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
