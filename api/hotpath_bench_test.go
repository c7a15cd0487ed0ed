package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// BenchmarkMoveRoundTrip is the hot path of docs/performance.md ("Under load"): one op is what
// a client of `allfives bench` does per move, a GET of its seat's state then a POST of one
// legal move, against a random bot, through the router and a real SQLite file. The server is
// wired as serve wires it (a JSON access log at info, one in 100 fast successes sampled in), so
// the allocations per op are the server's, plus the few of building the two requests.
// Run: go test ./api -run '^$' -bench MoveRoundTrip -benchmem
func BenchmarkMoveRoundTrip(b *testing.B) {
	for _, sync := range []string{"off", "full"} {
		b.Run("sync="+sync, func(b *testing.B) {
			e, svc := servedLikeServe(b, sync)
			m := newBenchMatch(b, e)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if rec := serve(e, http.MethodGet, "/api/v1/matches/"+m.id, m.token, ""); rec.Code != http.StatusOK {
					b.Fatalf("state: %d %s", rec.Code, rec.Body)
				}
				_, _, moves, err := svc.LegalMoves(ctx, m.id, domain.SeatViewer(0))
				if err != nil {
					b.Fatal(err)
				}
				if len(moves) == 0 { // finished (the bot always answers at once): another match
					b.StopTimer()
					m = newBenchMatch(b, e)
					b.StartTimer()
					continue
				}
				body := moveBody(moves[i%len(moves)])
				if rec := serve(e, http.MethodPost, "/api/v1/matches/"+m.id+"/moves", m.token, body); rec.Code != http.StatusOK {
					b.Fatalf("move %s: %d %s", body, rec.Code, rec.Body)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

// servedLikeServe is the handler as `allfives serve` builds it, over a fresh SQLite file.
func servedLikeServe(b *testing.B, sync string) (*echo.Echo, *referee.MatchService) {
	log := slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	h := newHarness(b, apitest.Sync(sync), apitest.WithoutPlayers(),
		apitest.ServiceConfig(func(c *referee.ServiceConfig) { c.Logger = log }),
		apitest.ServerConfig(func(c *api.Config) { c.Logger, c.AccessSample = log, 100 }))
	return h.e, h.svc
}

type benchSeat struct{ id, token string }

// newBenchMatch creates a match of one human (seat 0) against a random bot, as the load tool does.
func newBenchMatch(b *testing.B, e *echo.Echo) benchSeat {
	rec := serve(e, http.MethodPost, "/api/v1/matches", "",
		`{"players":[{"name":"bench","kind":"human"},{"name":"bot","kind":"bot","bot":"random"}]}`)
	if rec.Code != http.StatusCreated {
		b.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	var out api.CreateMatchResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Tokens) != 1 || out.Tokens[0].Seat != 0 {
		b.Fatalf("create: %v %s", err, rec.Body)
	}
	return benchSeat{id: out.Match.ID, token: out.Tokens[0].Token}
}

// serve sends one request through the handler, with a token and a JSON body when given.
func serve(e *echo.Echo, method, path, token, body string) *httptest.ResponseRecorder {
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
	e.ServeHTTP(rec, req)
	return rec
}
