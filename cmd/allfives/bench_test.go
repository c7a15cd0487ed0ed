package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

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
	wants := []string{
		"4 clients, 6 operations per client and phase", "moves/s  p50", "moves with key", "healthz", "state,     3 hot",
		"state,    12", "moves with key / moves", "move p99 / p50", "state reads / healthz",
		"spread reads / hot reads", "moves / moves on " + b,
	}
	if runtime.GOOS == "linux" { // the process collector reads /proc
		wants = append(wants, "ms per move (a state read and a move)", "server CPU per move", " ms per /healthz", " ms per state read (hot)",
			"per /healthz meanwhile", "server CPU per move / /healthz")
	}
	for _, want := range wants {
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

// TestServerCPUReadsTheProcessCounter: the CPU comes from process_cpu_seconds_total, a server
// without the counter is errNoCPUMetric (the report then says so), and a failing /metrics is
// an error rather than a zero.
func TestServerCPUReadsTheProcessCounter(t *testing.T) {
	for _, c := range []struct {
		name, body string
		status     int
		want       time.Duration
		err        error
	}{
		{"counter", "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.5\nprocess_open_fds 9\n", 200, 12500 * time.Millisecond, nil},
		{"no counter", "go_goroutines 7\n", 200, 0, errNoCPUMetric},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			got, err := newBenchClient(srv.URL, 1).serverCPU(context.Background())
			if got != c.want || !errors.Is(err, c.err) {
				t.Errorf("serverCPU = %v, %v; want %v, %v", got, err, c.want, c.err)
			}
		})
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	if _, err := newBenchClient(srv.URL, 1).serverCPU(context.Background()); err == nil {
		t.Error("a 404 from /metrics: want an error")
	}
}
