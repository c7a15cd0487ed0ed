package server_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
)

// testConfig is serve's configuration on a fresh SQLite file with the limits off, on clock.
func testConfig(t *testing.T, clock *apitest.Clock) server.Config {
	cfg := server.DefaultConfig()
	cfg.DB, cfg.Sync, cfg.Limits = filepath.Join(t.TempDir(), "allfives.db"), "normal", server.Limits{}
	cfg.BotSeed, cfg.Review = 7, apitest.SmallReview
	if clock != nil {
		cfg.Clock = clock
	}
	cfg.SweepEvery, cfg.RatingsEvery = 20*time.Millisecond, 20*time.Millisecond
	return cfg
}

// TestStartWiresEveryFeature: a started server has every service serve wires, its router
// serves the API's routes of each (matches, players, reviews, ratings, tournaments, seeks,
// streams), answers /readyz until it drains, and closes once.
func TestStartWiresEveryFeature(t *testing.T) {
	clock := apitest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
	s, err := server.Start(context.Background(), testConfig(t, clock))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Matches == nil || s.Players == nil || s.Reviews == nil || s.Ratings == nil || s.Tournaments == nil || s.Seeks == nil || s.Store == nil {
		t.Fatalf("a service is missing: %+v", s)
	}
	routes := map[string]bool{}
	for _, r := range s.Echo.Routes() {
		routes[r.Method+" "+r.Path] = true
	}
	for _, want := range []string{"POST /api/v1/matches", "POST /api/v1/matches/:id/review", "GET /api/v1/players/:id/ratings",
		"POST /api/v1/tournaments", "POST /api/v1/seeks", "GET /api/v1/matches/:id/stream", "GET /readyz"} {
		if !routes[want] {
			t.Errorf("no route %s among %d", want, len(routes))
		}
	}
	srv := httptest.NewServer(s.Handler)
	defer srv.Close()
	if code := status(t, srv.URL+"/readyz"); code != http.StatusOK {
		t.Fatalf("/readyz: %d", code)
	}
	s.SetDraining(true)
	if code := status(t, srv.URL+"/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz while draining: %d", code)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

// TestStartRefusesAZeroConfig: a Config not begun from DefaultConfig is an error, not a
// server whose loops never run, and leaves no database behind.
func TestStartRefusesAZeroConfig(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	if _, err := server.Start(context.Background(), server.Config{DB: db}); err == nil || !strings.Contains(err.Error(), "DefaultConfig") {
		t.Fatalf("Start of a zero Config: %v", err)
	}
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the database was created: %v", err)
	}
}

// TestStartServesProfiles: with PprofAddr, Go's profiles are served on a listener of their
// own, which Close closes.
func TestStartServesProfiles(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.PprofAddr = "127.0.0.1:0"
	var logged apitest.SyncBuffer
	cfg.Logger = slog.New(slog.NewJSONHandler(&logged, nil))
	s, err := server.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	line := logged.Logged("serving profiles")
	addr, _ := line["pprof_addr"].(string)
	if addr == "" {
		t.Fatalf("log: %s", logged.String())
	}
	res, err := http.Get("http://" + addr + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine") {
		t.Fatalf("/debug/pprof/: %d %.200s", res.StatusCode, body)
	}
	s.Close()
	if _, err := http.Get("http://" + addr + "/debug/pprof/"); err == nil {
		t.Fatal("the profiles are served after Close")
	}
}

func status(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
