package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestPlayerMatches runs GET /players/{id}/matches through the real router on SQLite and on
// PostgreSQL: every match of the player once, newest first, across pages; the status filter;
// turn=me with the player's own key only; and its refusals.
func TestPlayerMatches(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			testPlayerMatches(t, h)
		})
	}
}

// playerMatches reads every page of path (a player's matches with a query), limit at a time.
func (h *harness) playerMatches(path string, limit int, hdr ...string) []api.PlayerMatchItem {
	h.t.Helper()
	var all []api.PlayerMatchItem
	cursor := ""
	for range 100 {
		q := url.Values{"limit": {string(rune('0' + limit))}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		sep := "?"
		if u, _ := url.Parse(path); u.RawQuery != "" {
			sep = "&"
		}
		r := h.do(http.MethodGet, path+sep+q.Encode(), nil, hdr...)
		if r.status != http.StatusOK {
			h.t.Fatalf("GET %s: %d %s", path, r.status, r.body)
		}
		var page api.PlayerMatchesResponse
		r.decode(h.t, &page)
		if len(page.Matches) > limit {
			h.t.Fatalf("a page of %d with limit %d", len(page.Matches), limit)
		}
		all = append(all, page.Matches...)
		if page.NextCursor == nil {
			return all
		}
		cursor = *page.NextCursor
	}
	h.t.Fatal("more than 100 pages")
	return nil
}

func testPlayerMatches(t *testing.T, h *harness) {
	ada, bob := h.newPlayer("Ada M"), h.newPlayer("Bob M")
	me := api.PlayerRequest{Kind: "human", Player: "me"}
	create := func(players ...api.PlayerRequest) api.CreateMatchResponse {
		r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: players}, auth(ada.Key)...)
		if r.status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		var out api.CreateMatchResponse
		r.decode(t, &out)
		return out
	}
	want := map[string]int{} // Ada's matches: her seat
	myTurn := map[string]bool{}
	for range 5 {
		m := create(me, api.PlayerRequest{Name: "Robo", Kind: "bot", Bot: "random"}).Match
		want[m.ID], myTurn[m.ID] = 0, m.Turn != nil && *m.Turn == 0
	}
	m := create(api.PlayerRequest{Name: "Zed", Kind: "human"}, me).Match
	want[m.ID], myTurn[m.ID] = 1, m.Turn != nil && *m.Turn == 1
	challenge := create(me, api.PlayerRequest{Kind: "human", Player: bob.Player.ID}).Match
	want[challenge.ID] = 0
	// An anonymous match and another player's are not Ada's.
	h.create("", false, "human", "random")

	path := "/api/v1/players/" + ada.Player.ID + "/matches"
	all := h.playerMatches(path, 2)
	if len(all) != len(want) {
		t.Fatalf("%d matches listed, want %d", len(all), len(want))
	}
	for i, it := range all {
		if seat, ok := want[it.ID]; !ok || seat != it.Seat || len(it.Players) < 2 {
			t.Fatalf("item %+v: want seat %d (listed %v)", it, seat, ok)
		}
		if i > 0 {
			prev := all[i-1]
			if it.CreatedAt.After(prev.CreatedAt) || (it.CreatedAt.Equal(prev.CreatedAt) && it.ID >= prev.ID) {
				t.Fatalf("not newest first: %s (%s) after %s (%s)", it.ID, it.CreatedAt, prev.ID, prev.CreatedAt)
			}
		}
	}
	if waiting := h.playerMatches(path+"?status=waiting", 5); len(waiting) != 1 || waiting[0].ID != challenge.ID || waiting[0].Status != "waiting" {
		t.Fatalf("waiting: %+v", waiting)
	}
	bobs := h.playerMatches("/api/v1/players/"+bob.Player.ID+"/matches", 5)
	if len(bobs) != 1 || bobs[0].ID != challenge.ID || bobs[0].Seat != 1 {
		t.Fatalf("Bob's matches (a challenge to him): %+v", bobs)
	}

	// turn=me: the matches in progress where Ada's seat is to act.
	var turns []string
	for _, it := range h.playerMatches(path+"?turn=me", 3, auth(ada.Key)...) {
		if it.Turn == nil || *it.Turn != it.Seat || it.Status != "in_progress" {
			t.Fatalf("turn=me lists %+v", it)
		}
		turns = append(turns, it.ID)
	}
	var wantTurns []string
	for id, mine := range myTurn {
		if mine {
			wantTurns = append(wantTurns, id)
		}
	}
	slices.Sort(turns)
	slices.Sort(wantTurns)
	if len(wantTurns) < 5 || !slices.Equal(turns, wantTurns) {
		t.Fatalf("turn=me %v, want %v", turns, wantTurns)
	}
	h.do(http.MethodGet, path+"?turn=me", nil).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	h.do(http.MethodGet, path+"?turn=me", nil, auth(bob.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	wrong := []byte(ada.Key)
	wrong[len(wrong)/2] ^= 'A' ^ 'B' // another valid base64url character, so another key
	h.do(http.MethodGet, path+"?turn=me", nil, auth(string(wrong))...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	h.do(http.MethodGet, path+"?turn=them", nil, auth(ada.Key)...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do(http.MethodGet, path+"?status=done", nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do(http.MethodGet, path+"?cursor=nope", nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do(http.MethodGet, path+"?limit=0", nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do(http.MethodGet, path+"?what=1", nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	h.do(http.MethodGet, "/api/v1/players/0123456789abcdef0123456789abcdef/matches", nil).problem(t, http.StatusNotFound, "PLAYER_NOT_FOUND")
}
