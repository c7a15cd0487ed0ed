package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/domain"
)

// BenchmarkServedRoundTrip is what a client of `allfives bench` does per move, through the
// server exactly as `serve --limits off` starts it (every feature on, a JSON access log at
// info, one in 100 fast successes sampled in), on a fresh SQLite file: a GET of its seat's
// state, then a POST of one legal move, against a random bot. The healthz case is the floor
// the move is judged against (docs/performance.md): the allocations per op of each, and
// their ratio in CPU under `allfives bench`.
// Run: go test ./cmd/allfives/internal/server -run '^$' -bench Served -benchmem
func BenchmarkServedRoundTrip(b *testing.B) {
	for _, sync := range []string{"off", "full"} {
		b.Run("move/sync="+sync, func(b *testing.B) {
			s := startServed(b, sync)
			m := newServedMatch(b, s.Handler)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if rec := call(s.Handler, http.MethodGet, "/api/v1/matches/"+m.id, m.token, ""); rec.Code != http.StatusOK {
					b.Fatalf("state: %d %s", rec.Code, rec.Body)
				}
				_, _, moves, err := s.Matches.LegalMoves(ctx, m.id, domain.SeatViewer(0))
				if err != nil {
					b.Fatal(err)
				}
				if len(moves) == 0 { // finished (the bot answers at once): another match
					b.StopTimer()
					m = newServedMatch(b, s.Handler)
					b.StartTimer()
					continue
				}
				body := servedMoveBody(moves[i%len(moves)])
				if rec := call(s.Handler, http.MethodPost, "/api/v1/matches/"+m.id+"/moves", m.token, body); rec.Code != http.StatusOK {
					b.Fatalf("move %s: %d %s", body, rec.Code, rec.Body)
				}
			}
		})
	}
	b.Run("healthz", func(b *testing.B) {
		s := startServed(b, "off")
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if rec := call(s.Handler, http.MethodGet, "/healthz", "", ""); rec.Code != http.StatusOK {
				b.Fatalf("healthz: %d %s", rec.Code, rec.Body)
			}
		}
	})
}

// startServed starts the server as serve does with --limits off, on a fresh SQLite file.
func startServed(b *testing.B, sync string) *server.Server {
	cfg := server.DefaultConfig()
	cfg.DB, cfg.Sync, cfg.Limits = filepath.Join(b.TempDir(), "allfives.db"), sync, server.Limits{}
	cfg.Logger = slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	// Seeded, so that every run deals and plays the same matches: an instruction count
	// (valgrind --tool=callgrind, docs/performance.md) is then the same from run to run.
	cfg.BotSeed, cfg.Random = 7, &seededReader{r: rand.NewChaCha8([32]byte{7})}
	// The background loops (the clock's sweeper, the ratings' projection, the matcher, the
	// tournaments' driver) wake on the wall clock, not per move: under valgrind, which runs
	// the server tens of times slower, they would add work per op that serve never does.
	cfg.SweepEvery, cfg.RatingsEvery, cfg.TournamentSweep, cfg.Seeks.Every = time.Hour, time.Hour, time.Hour, time.Hour
	s, err := server.Start(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := s.Close(); err != nil {
			b.Error(err)
		}
	})
	return s
}

// seededReader is a deterministic source of the server's seeds, ids and tokens, safe for
// concurrent use.
type seededReader struct {
	mu sync.Mutex
	r  *rand.ChaCha8
}

func (s *seededReader) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Read(p)
}

type servedSeat struct{ id, token string }

// newServedMatch creates a match of one human (seat 0) against a random bot, as the load tool does.
func newServedMatch(b *testing.B, h http.Handler) servedSeat {
	rec := call(h, http.MethodPost, "/api/v1/matches", "",
		`{"players":[{"name":"bench","kind":"human"},{"name":"bot","kind":"bot","bot":"random"}]}`)
	if rec.Code != http.StatusCreated {
		b.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	var out api.CreateMatchResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Tokens) != 1 || out.Tokens[0].Seat != 0 {
		b.Fatalf("create: %v %s", err, rec.Body)
	}
	return servedSeat{id: out.Match.ID, token: out.Tokens[0].Token}
}

// servedMoveBody is a move as the load tool sends it.
func servedMoveBody(m domain.LegalMove) string {
	if m.Action == domain.ActionPlay {
		return fmt.Sprintf(`{"action":"play","tile":"%s","end":"%s"}`, m.Tile, m.End)
	}
	return fmt.Sprintf(`{"action":"%s"}`, m.Action)
}

// call sends one request through the handler, with a token and a JSON body when given.
func call(h http.Handler, method, path, token, body string) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
