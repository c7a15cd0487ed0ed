package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
)

// listed is the ids of the matches a list answered.
func (r *sealedRound) listed(path, key string) []string {
	r.t.Helper()
	var page struct {
		Matches []struct {
			ID     string `json:"id"`
			Seat   *int   `json:"seat"`
			Scores []int  `json:"scores"`
			Turn   *int   `json:"turn"`
			Status string `json:"status"`
		} `json:"matches"`
	}
	r.must(http.StatusOK, "GET", path, key, nil, &page)
	ids := []string{}
	for _, m := range page.Matches {
		ids = append(ids, m.ID)
	}
	return ids
}

// TestSealedMatchListedForItsOwnSeats: while the round runs, a player finds its own sealed
// match in its own lists (its matches, turn=me, its stream's snapshot) with its own key, so
// a client finds the match it must play; nobody else finds it in any list.
func TestSealedMatchListedForItsOwnSeats(t *testing.T) {
	r := newSealedRound(t)
	seat, player, key := r.toMove()
	mine := "/api/v1/players/" + player + "/matches"
	for _, path := range []string{mine, mine + "?turn=me", mine + "?status=in_progress"} {
		if got := r.listed(path, key); !slices.Contains(got, r.live.match) {
			t.Errorf("GET %s with the player's own key lists %v, not its sealed match %s", path, got, r.live.match)
		}
	}
	// The item is what its seat reads: the seat and its turn.
	var page api.PlayerMatchesResponse
	r.must(http.StatusOK, "GET", mine+"?turn=me", key, nil, &page)
	if len(page.Matches) != 1 || page.Matches[0].Seat != seat || page.Matches[0].Turn == nil || *page.Matches[0].Turn != seat {
		t.Errorf("turn=me: %+v, want the sealed match with seat %d to move", page.Matches, seat)
	}
	// A seat of the ended table finds it among its finished matches.
	for s, p := range r.ended.players {
		if got := r.listed("/api/v1/players/"+p+"/matches?status=finished", r.ended.keys[s]); !slices.Contains(got, r.ended.match) {
			t.Errorf("seat %d of the ended table lists %v, not its sealed match", s, got)
		}
	}
	// Nobody else: no key, another player's, the organiser's; nor the public lists.
	other := r.ended.someKey()
	for _, who := range []string{"", other, r.org, r.outsider} {
		for _, path := range []string{mine, mine + "?status=in_progress"} {
			if got := r.listed(path, who); slices.Contains(got, r.live.match) {
				t.Errorf("GET %s with another's key (%q) lists the sealed match", path, who)
			}
		}
	}
	for _, path := range []string{"/api/v1/matches", "/api/v1/matches?status=in_progress", "/api/v1/matches?status=finished",
		"/api/v1/matches?player=" + url.QueryEscape("Ann")} {
		for _, who := range []string{"", key} {
			if got := r.listed(path, who); slices.Contains(got, r.live.match) || slices.Contains(got, r.ended.match) {
				t.Errorf("GET %s lists a sealed match: %v", path, got)
			}
		}
	}
	// turn=me with someone else's key is refused, as ever; a key that is no key is refused
	// rather than ignored.
	if code, b := r.call("GET", mine+"?turn=me", other, nil); code != http.StatusUnauthorized {
		t.Errorf("turn=me with another's key: %d %s", code, b)
	}
	if code, b := r.call("GET", mine, "garbage", nil); code != http.StatusUnauthorized {
		t.Errorf("a list with a garbage key: %d %s", code, b)
	}

	// The player's stream: its snapshot's turns hold the sealed match.
	srv := httptest.NewServer(r.e)
	defer srv.Close()
	ps, snap := openPlayerStream(t, srv.URL, key, "")
	defer ps.close()
	if ids := itemIDs(snap.Turns); !slices.Contains(ids, r.live.match+"/"+string(rune('0'+seat))) {
		t.Errorf("the player's stream's turns %v lack its sealed match", ids)
	}
	if b, _ := json.Marshal(snap); contains(b, r.ended.match) {
		t.Errorf("the stream of a player of the live table shows the ended table: %s", b)
	}
}

// TestSealedStreamOpensToItsSeatWithATicket: a seat of a sealed match opens the match's
// stream with a ticket, as a browser does; the seal spends the ticket once, and the stream
// reads the match as its seat. Anyone else's ticket, or a spent one, is the seal's 409.
func TestSealedStreamOpensToItsSeatWithATicket(t *testing.T) {
	r := newSealedRound(t)
	srv := httptest.NewServer(r.e)
	defer srv.Close()
	_, _, key := r.toMove()
	var tk api.SeatTicketResponse
	r.must(http.StatusCreated, "POST", "/api/v1/matches/"+r.live.match+"/tickets", key, nil, &tk)
	u := srv.URL + "/api/v1/matches/" + r.live.match + "/stream?ticket=" + url.QueryEscape(tk.Ticket)
	s, refused := openStream(t, u)
	if refused != nil {
		t.Fatalf("the seat's stream with its ticket: %d %s", refused.status, refused.body)
	}
	f, ok := s.nextEvent()
	if !ok || f.event != "match.created" {
		t.Fatalf("first frame %+v", f)
	}
	s.close()
	// Spent: the seal cannot tell it from any other credential that holds no seat.
	if _, refused = openStream(t, u); refused == nil || refused.status != http.StatusConflict || problemCode(refused.body) != "MATCH_SEALED" {
		t.Fatalf("a spent ticket: %+v", refused)
	}
}
