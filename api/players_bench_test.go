package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// BenchmarkAuthenticate compares the two credentials a request may carry, each checked on
// every request through the real router: a seat token (GET /api/v1/matches/{id}, the match
// from the service's memory, the token against its seats' hashes) and a player key (GET
// /api/v1/players/me, one indexed equality on players.key_hash in the store, then a
// constant-time compare). Run: go test -bench Authenticate -run '^$' ./api
func BenchmarkAuthenticate(b *testing.B) {
	for _, eng := range engines {
		b.Run(eng.name, func(b *testing.B) {
			if eng.name == "postgres" {
				pgtest.Require(b)
			}
			h := newPlayersHarness(b, eng.open(b), nil)
			tb := h.create(seed1, false, "human", "human")
			key := h.newPlayer("Ada").Key
			for _, c := range []struct{ name, path, credential string }{
				{"seat-token", tb.path(""), tb.tokens[0]},
				{"player-key", "/api/v1/players/me", key},
			} {
				b.Run(c.name, func(b *testing.B) {
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							req := httptest.NewRequest(http.MethodGet, c.path, nil)
							req.Header.Set("Authorization", "Bearer "+c.credential)
							rec := httptest.NewRecorder()
							h.e.ServeHTTP(rec, req)
							if rec.Code != http.StatusOK {
								b.Errorf("%s: %d %s", c.path, rec.Code, rec.Body)
							}
						}
					})
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
				})
			}
		})
	}
}
