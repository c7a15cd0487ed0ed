package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// The benchmarks go through the real router and a real SQLite file, without the contract
// check the tests add. Run: go test -bench . -run '^$' ./api

// BenchmarkMove measures one move over HTTP: decode, authenticate, decide, append (a commit),
// answer. Two humans alternate; each next move is looked up in memory, off the HTTP path.
// sync=off leaves out the wait for the disk, so that the CPU a move costs shows.
func BenchmarkMove(b *testing.B) {
	for _, sync := range []string{"full", "normal", "off"} {
		b.Run("sync="+sync, func(b *testing.B) {
			h := newHarness(b, apitest.Sync(sync))
			tb := h.create("", false, "human", "human")
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				v, err := h.svc.View(ctx, tb.id, domain.Spectator())
				if err != nil {
					b.Fatal(err)
				}
				if v.Turn == nil { // finished: start another match
					b.StopTimer()
					tb = h.create("", false, "human", "human")
					b.StartTimer()
					v, _ = h.svc.View(ctx, tb.id, domain.Spectator())
				}
				seat := v.Hand.Turn
				_, _, moves, err := h.svc.LegalMoves(ctx, tb.id, domain.SeatViewer(seat))
				if err != nil {
					b.Fatal(err)
				}
				body := moveBody(moves[i%len(moves)])
				req := httptest.NewRequest(http.MethodPost, tb.path("/moves"), strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tb.tokens[seat])
				rec := httptest.NewRecorder()
				h.e.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("move %s: %d %s", body, rec.Code, rec.Body)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}

func moveBody(m domain.LegalMove) string {
	if m.Action == domain.ActionPlay {
		return fmt.Sprintf(`{"action":"play","tile":"%s","end":"%s"}`, m.Tile, m.End)
	}
	return fmt.Sprintf(`{"action":"%s"}`, m.Action)
}

// BenchmarkStateRead measures GET /api/v1/matches/{id} with a seat token: the match comes
// from the service's memory, so no read touches the disk.
func BenchmarkStateRead(b *testing.B) {
	h := newHarness(b)
	tb := h.create(seed1, false, "human", "human")
	read := func() {
		req := httptest.NewRequest(http.MethodGet, tb.path(""), nil)
		req.Header.Set("Authorization", "Bearer "+tb.tokens[0])
		rec := httptest.NewRecorder()
		h.e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Errorf("state: %d %s", rec.Code, rec.Body)
		}
	}
	b.Run("serial", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			read()
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				read()
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
}
