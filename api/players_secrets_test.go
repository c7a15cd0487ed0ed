package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestPlayerKeysNeverLeak: in a scripted session with players (creates, reads, a clash,
// rotations, refusals with old and wrong keys), on SQLite and PostgreSQL, every key appears
// in exactly one answer, the one that issued it, and in no header, no other answer and no
// line of the server's log (every level, every access line).
func TestPlayerKeysNeverLeak(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			var logs apitest.SyncBuffer
			h := newHarness(t, apitest.WithStore(eng.open(t)), apitest.Logs(&logs))
			var answers []*reply
			issued := map[string]int{} // key -> index of the answer that issued it
			do := func(method, path string, body any, hdr ...string) *reply {
				r := h.do(method, path, body, hdr...)
				answers = append(answers, r)
				return r
			}
			create := func(name string) api.CreatePlayerResponse {
				r := do("POST", "/api/v1/players", api.CreatePlayerRequest{Name: name})
				var out api.CreatePlayerResponse
				r.decode(t, &out)
				issued[out.Key] = len(answers) - 1
				return out
			}
			rotate := func(key string) string {
				r := do("POST", "/api/v1/players/me/key", nil, auth(key)...)
				var out api.PlayerKeyResponse
				r.decode(t, &out)
				if r.status != http.StatusOK {
					t.Fatalf("rotate: %d %s", r.status, r.body)
				}
				issued[out.Key] = len(answers) - 1
				return out.Key
			}
			ada, bo := create("Ada"), create("Bo")
			do("POST", "/api/v1/players", api.CreatePlayerRequest{Name: "ada"})
			do("GET", "/api/v1/players/me", nil, auth(ada.Key)...)
			do("GET", "/api/v1/players/"+bo.Player.ID, nil, auth(ada.Key)...)
			do("GET", "/api/v1/players/"+ada.Player.ID, nil)
			k2 := rotate(ada.Key)
			do("GET", "/api/v1/players/me", nil, auth(ada.Key)...)
			do("POST", "/api/v1/players/me/key", nil, auth(ada.Key)...)
			do("GET", "/api/v1/players/me", nil, "Authorization", "Basic "+bo.Key)
			do("GET", "/api/v1/players/me", nil, auth(bo.Key+"x")...)
			do("GET", "/api/v1/players/me?key="+bo.Key, nil, auth(bo.Key)...)
			k3 := rotate(k2)
			do("GET", "/api/v1/players/me", nil, auth(k3)...)
			do("GET", "/api/v1/players/me", nil, auth(k2)...)
			if len(issued) != 4 {
				t.Fatalf("%d keys issued, want 4", len(issued))
			}

			log := logs.String()
			if !strings.Contains(log, `"route":"/api/v1/players/me"`) || !strings.Contains(log, "request refused") {
				t.Fatalf("the log lacks the access lines or the refusals it should have:\n%s", log)
			}
			for key, from := range issued {
				for i, r := range answers {
					if strings.Contains(string(r.body), key) != (i == from) {
						t.Errorf("answer %d (%d) and the key issued by answer %d: %s", i, r.status, from, r.body)
					}
					for name, vals := range r.header {
						if strings.Contains(strings.Join(vals, " "), key) {
							t.Errorf("answer %d's %s header holds a key", i, name)
						}
					}
				}
				if strings.Contains(log, key) {
					t.Errorf("the server's log holds a key:\n%s", log)
				}
			}
			// Nor any Authorization value: the refusals name the form, "Bearer <player key>".
			if regexp.MustCompile(`Bearer [^<]|Basic|afk_`).MatchString(log) {
				t.Errorf("the server's log holds an Authorization value:\n%s", log)
			}
		})
	}
}
