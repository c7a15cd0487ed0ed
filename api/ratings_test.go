package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
)

// ratedStore is what a server with ratings needs of its store.
type ratedStore interface {
	playerStore
	ratings.Store
}

// quickBots plays every strategy name with random or greedy, so that rated matches of
// distinct bots end in milliseconds.
func quickBots() map[string]domain.Strategy {
	return map[string]domain.Strategy{
		bot.NameRandom: bot.NewRandom(3), bot.NameGreedy: bot.NewGreedy(),
		bot.NamePIMC: bot.NewGreedy(), bot.NameExpert: bot.NewRandom(4),
	}
}

// newRatingsHarness is the real router with players and ratings over store, and the
// projection that rates its matches (run by the test, not by a timer).
func newRatingsHarness(t testing.TB, store ratedStore) (*harness, *ratings.Projector) {
	t.Helper()
	h := newHarness(t, apitest.WithStore(store),
		apitest.ServiceConfig(func(c *referee.ServiceConfig) { c.Bots = quickBots() }),
		apitest.ServerConfig(func(c *api.Config) { c.Ratings = ratings.NewService(store) }))
	return h, ratings.NewProjector(ratings.Config{Store: store, Logs: store})
}

// TestRatingsAPI: rated matches through the real router on each engine: who may be seated,
// the ratings and history of a player and of a bot, the leaderboard and its cursor, and a
// finished match's rating changes.
func TestRatingsAPI(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h, proj := newRatingsHarness(t, eng.open(t).(ratedStore))
			t.Run("Refusals", func(t *testing.T) { testRatedRefusals(t, h) })
			t.Run("Rated", func(t *testing.T) { testRated(t, h, proj) })
		})
	}
}

func testRatedRefusals(t *testing.T, h *harness) {
	ada := h.newPlayer("Ada R")
	target := 5
	cases := []struct {
		name string
		req  api.CreateMatchRequest
		key  string
		want string
	}{
		{"anonymous human", api.CreateMatchRequest{Rated: true, Players: []api.PlayerRequest{{Name: "Anon", Kind: "human"}, {Name: "G", Kind: "bot", Bot: "greedy"}}}, "", "players[0] is an anonymous seat"},
		{"open seat", api.CreateMatchRequest{Rated: true, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "open"}}}, ada.Key, "players[1] is an anonymous seat"},
		{"a bot twice", api.CreateMatchRequest{Rated: true, Players: []api.PlayerRequest{{Name: "G1", Kind: "bot", Bot: "greedy"}, {Name: "G2", Kind: "bot", Bot: "greedy"}}}, "", "both the greedy bot"},
		{"a seed", api.CreateMatchRequest{Rated: true, Seed: strings.Repeat("ab", 32), Target: &target, Players: []api.PlayerRequest{{Name: "G", Kind: "bot", Bot: "greedy"}, {Name: "R", Kind: "bot", Bot: "random"}}}, "", "draws its own seed"},
	}
	for _, c := range cases {
		var hdr []string
		if c.key != "" {
			hdr = auth(c.key)
		}
		p := h.do(http.MethodPost, "/api/v1/matches", c.req, hdr...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, c.want) {
			t.Errorf("%s: detail %q, want %q in it", c.name, p.Detail, c.want)
		}
	}
	// A rated match's open seat, reserved for a player, is joined by that player's key only.
	bob := h.newPlayer("Bob R")
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Rated: true, Listed: true, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Player: bob.Player.ID}}}, auth(ada.Key)...)
	if r.status != http.StatusCreated {
		t.Fatalf("a rated challenge: %d %s", r.status, r.body)
	}
	for _, bad := range []struct {
		path string
		want int
		code string
	}{
		{"/api/v1/leaderboard/5p", 400, "INVALID_REQUEST"},
		{"/api/v1/leaderboard/2p?limit=0", 400, "INVALID_REQUEST"},
		{"/api/v1/leaderboard/2p?cursor=", 400, "INVALID_REQUEST"},
		{"/api/v1/leaderboard/2p?cursor=bm9wZQ", 400, "INVALID_REQUEST"},
		{"/api/v1/leaderboard/2p?page=2", 400, "INVALID_REQUEST"},
		{"/api/v1/leaderboard/2p?players=robots", 400, "INVALID_REQUEST"},
		{"/api/v1/leaderboard/2p?players=", 400, "INVALID_REQUEST"},
		{"/api/v1/players/" + ada.Player.ID + "/ratings?format=5p", 400, "INVALID_REQUEST"},
		{"/api/v1/players/" + ada.Player.ID + "/ratings?cursor=zz", 400, "INVALID_REQUEST"},
		{"/api/v1/players/" + ada.Player.ID + "/ratings?limit=201", 400, "INVALID_REQUEST"},
		{"/api/v1/players/nobody/ratings", 404, "PLAYER_NOT_FOUND"},
	} {
		h.do(http.MethodGet, bad.path, nil).problem(t, bad.want, bad.code)
	}
}

func testRated(t *testing.T, h *harness, proj *ratings.Projector) {
	ctx := context.Background()
	cy := h.newPlayer("Cy R")
	target := 5
	// Cy against the greedy bot, rated; before it ends, nothing is rated.
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Name: "Greedy", Kind: "bot", Bot: "greedy"}}}, auth(cy.Key)...)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var created api.CreateMatchResponse
	r.decode(t, &created)
	if !created.Match.Rated {
		t.Fatalf("the rated match's view says rated %v", created.Match.Rated)
	}
	m := &table{h: h, id: created.Match.ID, tokens: map[int]string{0: created.Tokens[0].Token}}
	if ev := m.events(-1).Events[0]; ev.Data.Rated == nil || !*ev.Data.Rated {
		t.Fatalf("match.created does not say rated: %+v", ev.Data)
	}
	end := m.playOut(nil)
	if len(end.RatingChanges) != 0 {
		t.Fatalf("rating changes before the projection ran: %+v", end.RatingChanges)
	}
	tagBefore := h.do(http.MethodGet, m.path(""), nil).header.Get("ETag")
	if _, err := proj.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	rv := h.do(http.MethodGet, m.path(""), nil)
	var v api.MatchView
	rv.decode(t, &v)
	if len(v.RatingChanges) != 2 || v.RatingChanges[0].Player != cy.Player.ID || v.RatingChanges[1].Player != "bot-greedy" ||
		v.RatingChanges[0].Format != "2p" || v.RatingChanges[0].Before.Mu != 25 || v.RatingChanges[0].Before.Rating != 0 {
		t.Fatalf("rating changes %+v", v.RatingChanges)
	}
	if rv.header.Get("ETag") == tagBefore {
		t.Fatalf("the ETag %s did not change with the rating changes", tagBefore)
	}
	// Cy is new, so the match moves Cy's rating and not the bot's (docs/ratings.md, "Farming").
	winner := *v.WinnerSide
	if cyc := v.RatingChanges[0]; (cyc.After.Mu > 25) != (winner == 0) || cyc.After.Mu == 25 || v.RatingChanges[1].After != v.RatingChanges[1].Before {
		t.Fatalf("winner side %d: Cy's mu did not move with the result, or the bot's did: %+v", winner, v.RatingChanges)
	}

	// The rematch is rated too.
	if next := m.rematch(cy.Key); !next.Match.Rated {
		t.Fatalf("the rematch of a rated match is not rated: %+v", next.Match)
	}

	// The player's ratings and history.
	var pr api.PlayerRatingsResponse
	h.do(http.MethodGet, "/api/v1/players/"+cy.Player.ID+"/ratings", nil).decode(t, &pr)
	fr, ok := pr.Ratings["2p"]
	if !ok || len(pr.Ratings) != 1 || fr.Matches != 1 || !fr.Provisional || fr.Mu != v.RatingChanges[0].After.Mu ||
		fr.Rating != fr.Mu-3*fr.Sigma || len(pr.History) != 1 || pr.History[0].MatchID != m.id || pr.NextCursor != nil {
		t.Fatalf("ratings %+v", pr)
	}
	if (fr.Wins == 1) != (winner == 0) {
		t.Fatalf("wins %d, winner side %d", fr.Wins, winner)
	}

	// Bots only: thirty rated 2p matches of random against greedy, so both leave provisional;
	// bot-greedy's history holds Cy's match too, which did not count for it.
	for range 30 {
		h.createMatch(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{{Name: "Random", Kind: "bot", Bot: "random"}, {Name: "Greedy", Kind: "bot", Bot: "greedy"}}})
	}
	if _, err := proj.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	var bot api.PlayerRatingsResponse
	h.do(http.MethodGet, "/api/v1/players/bot-greedy/ratings?limit=5&format=2p", nil).decode(t, &bot)
	if g := bot.Ratings["2p"]; g.Matches < 30 || len(bot.History) != 5 || bot.NextCursor == nil {
		t.Fatalf("bot-greedy's ratings %+v", bot)
	}
	seen, counted := map[string]bool{}, 0
	for cursor := ""; ; {
		var page api.PlayerRatingsResponse
		path := "/api/v1/players/bot-greedy/ratings?limit=5"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		h.do(http.MethodGet, path, nil).decode(t, &page)
		for i, it := range page.History {
			if seen[it.MatchID] || i > 0 && it.EndedAt.After(page.History[i-1].EndedAt) {
				t.Fatalf("history page %+v repeats or is not newest first", page.History)
			}
			seen[it.MatchID] = true
			if it.AgainstEstablished {
				counted++
			}
		}
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	if counted != bot.Ratings["2p"].Matches || !seen[m.id] || len(seen) < counted+1 {
		t.Fatalf("the history's pages hold %d matches, %d counted, want %d counted and Cy's match (the rematch, target 5, may have ended at once)", len(seen), counted, bot.Ratings["2p"].Matches)
	}
	var prof api.PlayerProfile
	h.do(http.MethodGet, "/api/v1/players/bot-expert", nil).decode(t, &prof)
	if prof.ID != "bot-expert" || prof.Name != "bot-expert" {
		t.Fatalf("bot-expert's profile %+v", prof)
	}

	// The leaderboard: the two bots, ranked; Cy is provisional and left out.
	var lb api.LeaderboardResponse
	h.do(http.MethodGet, "/api/v1/leaderboard/2p", nil).decode(t, &lb)
	ranked := []string{}
	for _, p := range lb.Players {
		ranked = append(ranked, p.Player.ID)
	}
	if lb.Format != "2p" || len(lb.Players) != 2 || lb.Players[0].Rating < lb.Players[1].Rating || lb.Players[0].Rank != 1 ||
		lb.Players[1].Rank != 2 || lb.NextCursor != nil || strings.Contains(strings.Join(ranked, " "), cy.Player.ID) {
		t.Fatalf("leaderboard %+v", lb)
	}
	var first, second api.LeaderboardResponse
	h.do(http.MethodGet, "/api/v1/leaderboard/2p?limit=1", nil).decode(t, &first)
	if len(first.Players) != 1 || first.NextCursor == nil || first.Players[0] != lb.Players[0] {
		t.Fatalf("first page %+v", first)
	}
	h.do(http.MethodGet, "/api/v1/leaderboard/2p?limit=1&cursor="+*first.NextCursor, nil).decode(t, &second)
	if len(second.Players) != 1 || second.NextCursor != nil || second.Players[0] != lb.Players[1] {
		t.Fatalf("second page %+v", second)
	}
	var empty api.LeaderboardResponse
	h.do(http.MethodGet, "/api/v1/leaderboard/2v2", nil).decode(t, &empty)
	if len(empty.Players) != 0 || empty.NextCursor != nil {
		t.Fatalf("an empty leaderboard %+v", empty)
	}
	testProgramBoards(t, h, lb, bot, pr)
}
