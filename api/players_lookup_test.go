package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestFindPlayerByName: GET /players?name= finds a player under the comparison that keeps
// names unique, and answers 404 PLAYER_NOT_FOUND for anyone else, on SQLite and PostgreSQL.
func TestFindPlayerByName(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			ada := h.newPlayer("Ada Lovelace")
			h.newPlayer("Bob")
			for _, name := range []string{"Ada Lovelace", "ada lovelace", "ＡＤＡ　Lovelace", "  Ada   Lovelace "} {
				r := h.do("GET", "/api/v1/players?name="+url.QueryEscape(name), nil)
				var out api.FoundPlayerResponse
				r.decode(t, &out)
				if r.status != http.StatusOK || jsonOf(t, out.Player) != jsonOf(t, ada.Player) {
					t.Fatalf("%q: %d %s", name, r.status, r.body)
				}
				if strings.Contains(string(r.body), ada.Key) || strings.Contains(string(r.body), `"key"`) {
					t.Fatalf("the lookup shows a key: %s", r.body)
				}
			}
			for _, name := range []string{"Ada", "Nobody", "A\u200bda Lovelace", strings.Repeat("x", 200)} {
				h.do("GET", "/api/v1/players?name="+url.QueryEscape(name), nil).problem(t, http.StatusNotFound, "PLAYER_NOT_FOUND")
			}
			for _, path := range []string{"/api/v1/players", "/api/v1/players?name=", "/api/v1/players?name=%20", "/api/v1/players?name=Bob&id=1", "/api/v1/players?name=Bob&name=Ada", "/api/v1/players?name=" + strings.Repeat("x", 300)} {
				h.do("GET", path, nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			}
		})
	}
}
