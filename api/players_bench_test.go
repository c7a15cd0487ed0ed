package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// BenchmarkAuthenticate compares the two credentials a state read may carry, through the real
// router, on one match: GET /api/v1/matches/{id} as seat 0, once with the seat's token (checked
// against the seats' hashes the service keeps in memory) and once with the key of the player
// bound to that seat (the store finds the key's player by its hash, then the seat is the one
// bound to it). The bar: the key's reads/s within 10% of the token's (docs/performance.md).
// Run: go test ./api -run '^$' -bench Authenticate -benchmem
func BenchmarkAuthenticate(b *testing.B) {
	for _, eng := range engines {
		b.Run(eng.name, func(b *testing.B) {
			if eng.name == "postgres" {
				pgtest.Require(b)
			}
			h := newPlayersHarness(b, eng.open(b), nil)
			ada := h.newPlayer("Ada")
			req := api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "bot", Name: "Bot", Bot: "random"}}}
			r := h.do(http.MethodPost, "/api/v1/matches", req, auth(ada.Key)...)
			if r.status != http.StatusCreated {
				b.Fatalf("create: %d %s", r.status, r.body)
			}
			var out api.CreateMatchResponse
			r.decode(b, &out)
			path := "/api/v1/matches/" + out.Match.ID
			for _, c := range []struct{ name, credential string }{
				{"seat-token", out.Tokens[0].Token},
				{"player-key", ada.Key},
			} {
				b.Run(c.name, func(b *testing.B) {
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							req := httptest.NewRequest(http.MethodGet, path, nil)
							req.Header.Set("Authorization", "Bearer "+c.credential)
							rec := httptest.NewRecorder()
							h.e.ServeHTTP(rec, req)
							if rec.Code != http.StatusOK {
								b.Errorf("%s: %d %s", path, rec.Code, rec.Body)
							}
						}
					})
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
				})
			}
		})
	}
}
