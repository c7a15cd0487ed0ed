package api_test

import (
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
)

// testProgramBoards (after testRated): the bots are programs on every board, on their
// ratings and nowhere else; ?players= keeps programs or people, ranked among themselves, and
// a cursor of one board is refused by another.
func testProgramBoards(t *testing.T, h *harness, all api.LeaderboardResponse, botRatings, personRatings api.PlayerRatingsResponse) {
	t.Helper()
	for _, p := range all.Players {
		if !p.Player.Program {
			t.Fatalf("the bot %s is not marked a program on the leaderboard: %+v", p.Player.ID, p)
		}
	}
	if !botRatings.Program || personRatings.Program {
		t.Fatalf("program on ratings: the bot's %v, the person's %v", botRatings.Program, personRatings.Program)
	}
	var programs, humans api.LeaderboardResponse
	h.do(http.MethodGet, "/api/v1/leaderboard/2p?players=programs", nil).decode(t, &programs)
	if len(programs.Players) != len(all.Players) || programs.Players[0] != all.Players[0] {
		t.Fatalf("the programs' board %+v, want the whole board's bots %+v", programs, all)
	}
	h.do(http.MethodGet, "/api/v1/leaderboard/2p?players=humans", nil).decode(t, &humans)
	if len(humans.Players) != 0 {
		t.Fatalf("the people's board holds %+v; no person is ranked", humans.Players)
	}
	var first api.LeaderboardResponse
	h.do(http.MethodGet, "/api/v1/leaderboard/2p?players=programs&limit=1", nil).decode(t, &first)
	if first.NextCursor == nil {
		t.Fatalf("a page of one of two programs has no next cursor: %+v", first)
	}
	if r := h.do(http.MethodGet, "/api/v1/leaderboard/2p?limit=1&cursor="+*first.NextCursor, nil); r.status != http.StatusBadRequest {
		t.Fatalf("the programs' cursor on the whole board: %d %s, want 400", r.status, r.body)
	}
}

// TestProgramPlayers: a player made with "program": true says so on its profile, to its own
// key and on its seat in a match's view, where the bot's seat is a program too; a person's
// is not.
func TestProgramPlayers(t *testing.T) {
	h := newHarness(t)
	var made api.CreatePlayerResponse
	h.do(http.MethodPost, "/api/v1/players", map[string]any{"name": "Deep Five", "program": true}).decode(t, &made)
	if !made.Player.Program {
		t.Fatalf("the program's answer at creation: %+v", made.Player)
	}
	person := h.newPlayer("Ada P")
	if person.Player.Program {
		t.Fatalf("a person made as a program: %+v", person.Player)
	}
	var prof api.PlayerProfile
	h.do(http.MethodGet, "/api/v1/players/"+made.Player.ID, nil).decode(t, &prof)
	var me api.PlayerView
	h.do(http.MethodGet, "/api/v1/players/me", nil, auth(made.Key)...).decode(t, &me)
	if !prof.Program || !me.Program {
		t.Fatalf("the program's profile %+v, its own view %+v", prof, me)
	}
	for _, who := range []struct {
		key     string
		program bool
	}{{made.Key, true}, {person.Key, false}} {
		var created api.CreateMatchResponse
		h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: []api.PlayerRequest{
			{Kind: "human", Player: "me"}, {Kind: "bot", Bot: "greedy"},
		}}, auth(who.key)...).decode(t, &created)
		var v api.MatchView
		h.do(http.MethodGet, "/api/v1/matches/"+created.Match.ID, nil, auth(who.key)...).decode(t, &v)
		if v.Seats[0].Program != who.program || !v.Seats[1].Program {
			t.Fatalf("seats %+v: want the player's program %v and the bot's true", v.Seats, who.program)
		}
	}
}
