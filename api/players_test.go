package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestPlayers runs each player route and each of its codes through the real router, on
// SQLite and on PostgreSQL.
func TestPlayers(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			t.Run("Create", func(t *testing.T) { testCreatePlayer(t, h) })
			t.Run("NamesUnique", func(t *testing.T) { testPlayerNamesUnique(t, h) })
			t.Run("Refusals", func(t *testing.T) { testPlayerRefusals(t, h) })
			t.Run("Rotate", func(t *testing.T) { testRotatePlayerKey(t, h) })
		})
	}
}

func testCreatePlayer(t *testing.T, h *harness) {
	before := time.Now().UTC()
	r := h.do("POST", "/api/v1/players", `{"name": "  Grace   Hopper "}`)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var out api.CreatePlayerResponse
	r.decode(t, &out)
	p := out.Player
	if p.Name != "Grace Hopper" || len(p.ID) != 32 || p.CreatedAt.Before(before) || p.CreatedAt.After(time.Now()) || !players.IsKey(out.Key) {
		t.Fatalf("created %+v, key of %d characters", p, len(out.Key))
	}
	if loc := r.header.Get("Location"); loc != "/api/v1/players/"+p.ID {
		t.Fatalf("Location %q", loc)
	}
	if cc := r.header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("Cache-Control %q on the answer with the key", cc)
	}

	r = h.do("GET", "/api/v1/players/me", nil, auth(out.Key)...)
	var me api.PlayerView
	r.decode(t, &me)
	if r.status != http.StatusOK || jsonOf(t, me) != jsonOf(t, p) {
		t.Fatalf("me: %d %s, want %+v", r.status, r.body, p)
	}
	r = h.do("GET", "/api/v1/players/"+p.ID, nil)
	var prof api.PlayerProfile
	r.decode(t, &prof)
	if r.status != http.StatusOK || prof.ID != p.ID || prof.Name != p.Name || !prof.CreatedAt.Equal(p.CreatedAt) {
		t.Fatalf("profile: %d %s", r.status, r.body)
	}
	for _, body := range [][]byte{r.body, h.do("GET", "/api/v1/players/me", nil, auth(out.Key)...).body} {
		if strings.Contains(string(body), out.Key) || strings.Contains(string(body), `"key"`) {
			t.Fatalf("a read shows the key: %s", body)
		}
	}
	h.do("GET", "/api/v1/players/0123456789abcdef0123456789abcdef", nil).problem(t, http.StatusNotFound, "PLAYER_NOT_FOUND")
}

// testPlayerNamesUnique: one name under the profile's comparison is one player, whatever its
// case or width; names that differ otherwise are different players.
func testPlayerNamesUnique(t *testing.T, h *harness) {
	h.newPlayer("Ada")
	for _, name := range []string{"Ada", "ada", "ＡＤＡ", " ADA ", "aDa"} {
		p := h.do("POST", "/api/v1/players", api.CreatePlayerRequest{Name: name}).problem(t, http.StatusConflict, "NAME_TAKEN")
		if !strings.Contains(p.Detail, "ignoring case and width") {
			t.Fatalf("detail %q", p.Detail)
		}
	}
	h.newPlayer("Adà")
	h.newPlayer("Ada Lovelace")
}

func testPlayerRefusals(t *testing.T, h *harness) {
	for _, body := range []string{`{"name": ""}`, `{"name": "A\u200bda"}`, `{"name": "x\n"}`, `{"nom": "Bo"}`, `{"name": "Bo", "key": "k"}`, `[]`} {
		h.do("POST", "/api/v1/players", body).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
	r := h.do("POST", "/api/v1/players?x=1", `{"name": "Bo"}`)
	r.problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	req := `{"name": "Bo"}`
	h.do("POST", "/api/v1/players", req, "Content-Type", "text/plain").problem(t, http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")

	bo := h.newPlayer("Bo")
	seat := h.create("", false, "human", "human").tokens[0]
	for _, hdr := range [][]string{
		nil,
		{"Authorization", "Basic " + bo.Key},
		{"Authorization", "Bearer "},
		{"Authorization", "Bearer " + seat},
		{"Authorization", "Bearer " + bo.Key + "x"},
		{"Authorization", "Bearer " + players.KeyPrefix + strings.Repeat("A", 43)},
	} {
		for _, route := range []struct{ method, path string }{{"GET", "/api/v1/players/me"}, {"POST", "/api/v1/players/me/key"}} {
			p := h.do(route.method, route.path, nil, hdr...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
			if strings.Contains(p.Detail, bo.Key) || strings.Contains(p.Detail, seat) {
				t.Fatalf("a refusal quotes the credential: %q", p.Detail)
			}
		}
	}
	// Two Authorization headers: which one a proxy acted on is anyone's guess.
	two := mustRequest(t, "GET", "/api/v1/players/me")
	two.Header.Add("Authorization", "Bearer "+bo.Key)
	two.Header.Add("Authorization", "Bearer "+bo.Key)
	h.serve(two).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")

	h.do("GET", "/api/v1/players/me?id="+bo.Player.ID, nil, auth(bo.Key)...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do("POST", "/api/v1/players/me/key?key=1", nil, auth(bo.Key)...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do("GET", "/api/v1/players/"+bo.Player.ID+"?name=Bo", nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	// The key still works after all of that.
	if r := h.do("GET", "/api/v1/players/me", nil, auth(bo.Key)...); r.status != http.StatusOK {
		t.Fatalf("me after the refusals: %d %s", r.status, r.body)
	}
}

// testRotatePlayerKey: the rotation answers a new key, which works at once; the old key is
// refused at once on every player route, and cannot rotate again.
func testRotatePlayerKey(t *testing.T, h *harness) {
	cy := h.newPlayer("Cy")
	r := h.do("POST", "/api/v1/players/me/key", nil, auth(cy.Key)...)
	if r.status != http.StatusOK || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	var next api.PlayerKeyResponse
	r.decode(t, &next)
	if !players.IsKey(next.Key) || next.Key == cy.Key {
		t.Fatalf("rotated to %q", next.Key)
	}
	refusedEverywhere(t, h, cy.Key)
	var me api.PlayerView
	r = h.do("GET", "/api/v1/players/me", nil, auth(next.Key)...)
	r.decode(t, &me)
	if r.status != http.StatusOK || me.ID != cy.Player.ID || me.Name != "Cy" {
		t.Fatalf("me with the new key: %d %s", r.status, r.body)
	}
}

// refusedEverywhere: key is 401 on every route that takes a player key.
func refusedEverywhere(t *testing.T, h *harness, key string) {
	t.Helper()
	h.do("GET", "/api/v1/players/me", nil, auth(key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	h.do("POST", "/api/v1/players/me/key", nil, auth(key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// TestRotatedKeyRefusedOnEveryInstance: two instances on one PostgreSQL database; a key
// rotated on one is refused at once by both, and the new key works on both.
func TestRotatedKeyRefusedOnEveryInstance(t *testing.T) {
	url := pgtest.URL(t)
	a := newHarness(t, apitest.WithStore(openPostgres(t, url)))
	b := newHarness(t, apitest.WithStore(openPostgres(t, url)))
	dee := a.newPlayer("Dee")
	if r := b.do("GET", "/api/v1/players/me", nil, auth(dee.Key)...); r.status != http.StatusOK {
		t.Fatalf("B does not know A's player: %d %s", r.status, r.body)
	}
	b.do("POST", "/api/v1/players", api.CreatePlayerRequest{Name: "DEE"}).problem(t, http.StatusConflict, "NAME_TAKEN")
	r := b.do("POST", "/api/v1/players/me/key", nil, auth(dee.Key)...)
	var next api.PlayerKeyResponse
	r.decode(t, &next)
	if r.status != http.StatusOK {
		t.Fatalf("rotate on B: %d %s", r.status, r.body)
	}
	for _, h := range []*harness{a, b} {
		refusedEverywhere(t, h, dee.Key)
		if r := h.do("GET", "/api/v1/players/me", nil, auth(next.Key)...); r.status != http.StatusOK {
			t.Fatalf("the new key: %d %s", r.status, r.body)
		}
	}
}

func mustRequest(t *testing.T, method, path string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
