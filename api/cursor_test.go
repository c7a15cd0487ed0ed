package api_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestRatingsCursorsSigned: a leaderboard or ratings cursor the server did not give is 400,
// never a page with made-up ranks: a forged one, an edited one, one of another board or of
// another player's history; the cursors it gave page on as before, on every instance.
func TestRatingsCursorsSigned(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h, proj := newRatingsHarness(t, eng.open(t).(ratedStore))
			rateBots(t, h, proj)
			first := checkCursors(t, h)
			// The first player's real rank is 1: a cursor claiming 999 players above it is
			// refused, not answered with rank 1000.
			forged := base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "b1|999|999|%x|zzzz", math.Float64bits(first.Rating+1)))
			for _, c := range []string{forged, forged + ".AAAAAAAAAAAAAAAAAAAAAA"} {
				h.do(http.MethodGet, "/api/v1/leaderboard/2p?cursor="+c, nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			}
		})
	}
	t.Run("instances", func(t *testing.T) {
		url := pgtest.URL(t)
		a, proj := newRatingsHarness(t, openPostgres(t, url))
		b, _ := newRatingsHarness(t, openPostgres(t, url))
		rateBots(t, a, proj)
		var page api.LeaderboardResponse
		a.do(http.MethodGet, "/api/v1/leaderboard/2p?limit=1", nil).decode(t, &page)
		var next api.LeaderboardResponse
		r := b.do(http.MethodGet, "/api/v1/leaderboard/2p?limit=1&cursor="+*page.NextCursor, nil)
		if r.status != http.StatusOK {
			t.Fatalf("instance B refuses instance A's cursor: %d %s", r.status, r.body)
		}
		if r.decode(t, &next); len(next.Players) != 1 || next.Players[0].Rank != 2 {
			t.Fatalf("instance B's second page %+v", next)
		}
	})
}

// rateBots plays thirty rated 2p matches of the random bot against the greedy one, and rates
// them, so that both are ranked.
func rateBots(t *testing.T, h *harness, proj interface {
	Drain(context.Context) (int, error)
}) {
	t.Helper()
	target := 5
	for range 30 {
		h.createMatch(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{
			{Name: "Random", Kind: "bot", Bot: "random"}, {Name: "Greedy", Kind: "bot", Bot: "greedy"},
		}})
	}
	if _, err := proj.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// checkCursors pages the board and a history with the cursors given, and refuses each cursor
// edited or moved to another list; it returns the board's first row.
func checkCursors(t *testing.T, h *harness) api.LeaderboardEntry {
	t.Helper()
	var page, next api.LeaderboardResponse
	h.do(http.MethodGet, "/api/v1/leaderboard/2p?limit=1", nil).decode(t, &page)
	if len(page.Players) != 1 || page.NextCursor == nil {
		t.Fatalf("first page %+v", page)
	}
	cursor := *page.NextCursor
	h.do(http.MethodGet, "/api/v1/leaderboard/2p?limit=1&cursor="+cursor, nil).decode(t, &next)
	if len(next.Players) != 1 || next.Players[0].Rank != 2 {
		t.Fatalf("second page %+v", next)
	}
	var hist api.PlayerRatingsResponse
	h.do(http.MethodGet, "/api/v1/players/bot-greedy/ratings?limit=2", nil).decode(t, &hist)
	if hist.NextCursor == nil {
		t.Fatalf("history %+v", hist)
	}
	hc := *hist.NextCursor
	for _, path := range []string{"/api/v1/players/bot-greedy/ratings?limit=2&cursor=" + hc, "/api/v1/players/bot-greedy/ratings?format=2p&cursor=" + hc} {
		if r := h.do(http.MethodGet, path, nil); r.status != http.StatusOK {
			t.Fatalf("the history's own cursor, with or without a format: %d %s", r.status, r.body)
		}
	}
	raw, tag, _ := strings.Cut(cursor, ".")
	edited := []byte(raw)
	edited[len(edited)/2] ^= 1
	for _, path := range []string{
		"/api/v1/leaderboard/2p?cursor=" + string(edited) + "." + tag, // the position edited
		"/api/v1/leaderboard/2p?cursor=" + raw,                        // the tag cut off
		"/api/v1/leaderboard/3p?cursor=" + cursor,                     // another board
		"/api/v1/players/bot-greedy/ratings?cursor=" + cursor,         // no history's
		"/api/v1/players/bot-random/ratings?limit=2&cursor=" + hc,     // another player's history
		"/api/v1/leaderboard/2p?cursor=" + hc,                         // no board's
	} {
		p := h.do(http.MethodGet, path, nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if p.Detail != "cursor is not a next_cursor this server gave: leave it out for the first page" {
			t.Fatalf("%s: %q", path, p.Detail)
		}
	}
	return page.Players[0]
}
