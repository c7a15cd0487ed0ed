package api_test

import (
	"encoding/base64"
	"net/http"
	"testing"
)

// TestBytesThatAreNotText: a path id that is not UTF-8 text (`%FF`, `%00`) is the 404 of an
// unknown match or player, another path segment or a cursor holding such bytes a 400
// INVALID_REQUEST, on every engine, with a key or without, never a 500: PostgreSQL refuses such a parameter, and for every head check that
// shares its statement. A read beside them still answers.
func TestBytesThatAreNotText(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h, _ := newRatingsHarness(t, eng.open(t).(ratedStore))
			key := h.newPlayer("Ada T").Key
			tb := h.create(seed1, false, "human", "human")
			for _, c := range []struct{ method, path, code string }{
				{"GET", "/api/v1/matches/%FF", "MATCH_NOT_FOUND"}, {"GET", "/api/v1/matches/%00", "MATCH_NOT_FOUND"},
				{"GET", "/api/v1/matches/%FF/legal-moves", "MATCH_NOT_FOUND"}, {"GET", "/api/v1/matches/%FF/events", "MATCH_NOT_FOUND"},
				{"POST", "/api/v1/matches/%C3/tickets", "MATCH_NOT_FOUND"}, {"GET", "/api/v1/players/%FF", "PLAYER_NOT_FOUND"},
				{"GET", "/api/v1/players/%FF/matches", "PLAYER_NOT_FOUND"}, {"GET", "/api/v1/players/%00/ratings", "PLAYER_NOT_FOUND"},
				{"GET", "/api/v1/leaderboard/%FF", "INVALID_REQUEST"},
			} {
				status := http.StatusNotFound
				if c.code == "INVALID_REQUEST" {
					status = http.StatusBadRequest
				}
				for _, auth := range []string{"", key} {
					var hdr []string
					if auth != "" {
						hdr = []string{"Authorization", "Bearer " + auth}
					}
					h.do(c.method, c.path, nil, hdr...).problem(t, status, c.code)
				}
			}
			for _, cursor := range []string{"b1|1|1|0|\xff", "h1|2026-01-01T00:00:00Z|\xff", "b1|1|1|0|\x00"} {
				c := base64.RawURLEncoding.EncodeToString([]byte(cursor))
				h.do("GET", "/api/v1/leaderboard/2p?cursor="+c, nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
				h.do("GET", "/api/v1/players/bot-random/ratings?cursor="+c, nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			}
			if r := h.do("GET", tb.path(""), nil, "Authorization", "Bearer "+tb.tokens[0]); r.status != http.StatusOK {
				t.Fatalf("a read beside them: %d %s", r.status, r.body)
			}
		})
	}
}
