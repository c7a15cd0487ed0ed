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

// TestBotLevelsAreRatedPlayers: every level is a strategy a seat may name and a player
// (bot-level-N, seeded by the migrations) with a profile; the projection rates a rated
// match's level seats as those players; a name that is no strategy is a 400
// that lists the levels.
func TestBotLevelsAreRatedPlayers(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			store := eng.open(t).(ratedStore)
			// Every name played quickly: the test is about names and players, not strength.
			bots := quickBots()
			for i, n := range bot.LevelNames() {
				bots[n] = map[bool]domain.Strategy{true: bot.NewGreedy(), false: bot.NewRandom(uint64(i))}[i%2 == 1]
			}
			h := newHarness(t, apitest.WithStore(store),
				apitest.ServiceConfig(func(c *referee.ServiceConfig) { c.Bots = bots }),
				apitest.ServerConfig(func(c *api.Config) { c.Ratings = ratings.NewService(store) }))
			proj := ratings.NewProjector(ratings.Config{Store: store, Logs: store})

			for _, n := range bot.AllNames() {
				var prof api.PlayerProfile
				h.do(http.MethodGet, "/api/v1/players/"+referee.BotPlayer(n), nil).decode(t, &prof)
				if prof.ID != referee.BotPlayer(n) || prof.Name != referee.BotPlayer(n) {
					t.Fatalf("%s's profile %+v", referee.BotPlayer(n), prof)
				}
			}

			target := 5
			r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{
				{Kind: "bot", Bot: "level-1"}, {Kind: "bot", Bot: "level-8"}, {Kind: "bot", Bot: "expert"},
			}})
			if r.status != http.StatusCreated {
				t.Fatalf("a rated match of levels: %d %s", r.status, r.body)
			}
			var created api.CreateMatchResponse
			r.decode(t, &created)
			for i, want := range []string{"bot-level-1", "bot-level-8", "bot-expert"} {
				if s := created.Match.Seats[i]; s.Name != want {
					t.Fatalf("seat %d of the rated match is %+v, want it named after its player %s", i, s, want)
				}
			}
			if n, err := proj.Drain(context.Background()); err != nil || n != 1 {
				t.Fatalf("the projection rated %d matches (%v), want the one", n, err)
			}
			var end api.MatchView
			h.do(http.MethodGet, "/api/v1/matches/"+created.Match.ID, nil).decode(t, &end)
			rated := map[string]bool{}
			for _, c := range end.RatingChanges {
				rated[c.Player] = true
			}
			if len(end.RatingChanges) != 3 || !rated["bot-level-1"] || !rated["bot-level-8"] || !rated["bot-expert"] {
				t.Fatalf("the rated match's rating changes %+v, want the three bots' players", end.RatingChanges)
			}
			for _, p := range []string{"bot-level-1", "bot-level-8"} {
				var rt api.PlayerRatingsResponse
				h.do(http.MethodGet, "/api/v1/players/"+p+"/ratings", nil).decode(t, &rt)
				if g := rt.Ratings["3p"]; g.Matches != 1 || len(rt.History) != 1 || rt.History[0].MatchID != created.Match.ID {
					t.Fatalf("%s's ratings after its rated match: %+v", p, rt)
				}
			}

			p := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: []api.PlayerRequest{
				{Name: "Ann", Kind: "human"}, {Kind: "bot", Bot: "level-9"},
			}}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			if !strings.Contains(p.Detail, "level-1") || !strings.Contains(p.Detail, "level-8") {
				t.Fatalf("refusing level-9: %q does not list the levels", p.Detail)
			}
		})
	}
}
