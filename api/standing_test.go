package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
)

// newStandingHarness is newRatingsHarness with every random choice seeded (ids, keys, the
// matches' seeds) and the bots of quickBots, so that each run plays the same matches. The
// players service is returned too: the test makes its accounts through it, the point being
// what rated play does, not how fast accounts are made.
func newStandingHarness(t *testing.T, store ratedStore) (*harness, *ratings.Projector, *players.Service) {
	t.Helper()
	h := newHarness(t, apitest.WithStore(store),
		apitest.PlayersConfig(func(c *players.Config) { c.Random = rand.NewChaCha8([32]byte{1}) }),
		apitest.ServiceConfig(func(c *referee.ServiceConfig) { c.Bots, c.Random = quickBots(), rand.NewChaCha8([32]byte{2}) }),
		apitest.ServerConfig(func(c *api.Config) { c.Ratings = ratings.NewService(store) }))
	return h, ratings.NewProjector(ratings.Config{Store: store, Logs: store}), h.Players
}

// TestStandingThroughTheRouter is docs/ratings.md's "Standing" on each engine: twenty fresh
// accounts each lose a rated match to one account, which counts for nobody ("Farming"), so
// that account has no rating and is not on the leaderboard; a player who plays rated matches
// against the bots is, once ten of them count, and a match against that player then counts
// for a newcomer.
func TestStandingThroughTheRouter(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h, proj, people := newStandingHarness(t, eng.open(t).(ratedStore))
			farmer := testSybils(t, h, proj, people)
			testHonestAgainstBots(t, h, proj, people, farmer)
		})
	}
}

// account makes a player through the service.
func account(t *testing.T, people *players.Service, name string) players.Created {
	t.Helper()
	c, err := people.Create(context.Background(), name)
	if err != nil {
		t.Fatalf("player %q: %v", name, err)
	}
	return c
}

// bestOrWorst is the legal move that scores most (best) or least.
func bestOrWorst(moves []api.LegalMove, best bool) api.LegalMove {
	points := func(m api.LegalMove) int {
		if m.Points == nil {
			return 0
		}
		return *m.Points
	}
	if best {
		return slices.MaxFunc(moves, func(a, b api.LegalMove) int { return points(a) - points(b) })
	}
	return slices.MinFunc(moves, func(a, b api.LegalMove) int { return points(a) - points(b) })
}

// ratedChallenge plays a rated two-player match the key of seat 0 creates, seat 1 reserved
// for the other player, who joins it; seat 0 plays its best-scoring moves and seat 1 its
// worst, to the end. turn_seconds is given, so no default clock of rated play changes it.
func ratedChallenge(t *testing.T, h *harness, first, second players.Created) api.MatchView {
	t.Helper()
	target, turn := 5, 3600
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Rated: true, Target: &target, TurnSeconds: &turn,
		Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Player: second.Player.ID}}}, auth(first.Key)...)
	if r.status != http.StatusCreated {
		t.Fatalf("rated challenge: %d %s", r.status, r.body)
	}
	var out api.CreateMatchResponse
	r.decode(t, &out)
	tb := &table{h: h, id: out.Match.ID, tokens: map[int]string{0: first.Key, 1: second.Key}}
	if j := tb.joinWith(1, second.Key, ""); j.status != http.StatusCreated {
		t.Fatalf("the challenged player joins: %d %s", j.status, j.body)
	}
	return tb.playOut(func(_, seat int, moves []api.LegalMove) bool {
		tb.mustMove(seat, asMove(bestOrWorst(moves, seat == 0)))
		return true
	})
}

// getOK reads path through the router into out, which must answer 200.
func getOK(t *testing.T, h *harness, path string, out any) {
	t.Helper()
	r := h.do(http.MethodGet, path, nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	r.decode(t, out)
}

// ratingsOf reads a player's ratings through the router.
func ratingsOf(t *testing.T, h *harness, id string) api.PlayerRatingsResponse {
	t.Helper()
	var pr api.PlayerRatingsResponse
	getOK(t, h, "/api/v1/players/"+id+"/ratings?limit=200", &pr)
	return pr
}

// onBoard says whether player id is on format's leaderboard.
func onBoard(t *testing.T, h *harness, format, id string) bool {
	t.Helper()
	var lb api.LeaderboardResponse
	getOK(t, h, "/api/v1/leaderboard/"+format+"?limit=100", &lb)
	if lb.NextCursor != nil {
		t.Fatal("more than 100 ranked players")
	}
	return slices.ContainsFunc(lb.Players, func(e api.LeaderboardEntry) bool { return e.Player.ID == id })
}

func testSybils(t *testing.T, h *harness, proj *ratings.Projector, people *players.Service) players.Created {
	ctx := context.Background()
	farmer := account(t, people, "Farmer")
	won := 0
	for i := range 20 {
		sybil := account(t, people, fmt.Sprintf("Sybil %02d", i))
		if end := ratedChallenge(t, h, farmer, sybil); end.WinnerSide != nil && *end.WinnerSide == 0 {
			won++
		}
	}
	if _, err := proj.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	pr := ratingsOf(t, h, farmer.Player.ID)
	if fr, ok := pr.Ratings["2p"]; ok {
		t.Fatalf("the farmer has a rating %+v after 20 matches against fresh accounts (%d won)", fr, won)
	}
	if onBoard(t, h, "2p", farmer.Player.ID) {
		t.Fatal("twenty fresh accounts put the farmer on the leaderboard")
	}
	wins := 0
	for _, it := range pr.History {
		if it.AgainstEstablished || it.After != it.Before {
			t.Fatalf("a match against a fresh account counted: %+v", it)
		}
		if it.Won {
			wins++
		}
	}
	if len(pr.History) != 20 || wins != won {
		t.Fatalf("the farmer's history holds %d matches, %d won, want 20 and %d", len(pr.History), wins, won)
	}
	t.Logf("the farmer won %d of 20: no rating, off the board", won)
	return farmer
}

func testHonestAgainstBots(t *testing.T, h *harness, proj *ratings.Projector, people *players.Service, farmer players.Created) {
	ctx := context.Background()
	target := 5
	// The bots play one another first, as on a server that has run a while.
	for i := range 20 {
		a, b := []string{"random", "greedy"}[i%2], []string{"pimc", "expert"}[i%2]
		h.createMatch(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{{Kind: "bot", Bot: a}, {Kind: "bot", Bot: b}}})
	}
	honest := account(t, people, "Honest")
	bots := []string{"random", "greedy", "pimc", "expert"}
	listed := 0
	for i := range 30 {
		r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Rated: true, Target: &target,
			Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "bot", Bot: bots[i%4]}}}, auth(honest.Key)...)
		if r.status != http.StatusCreated {
			t.Fatalf("rated match against a bot: %d %s", r.status, r.body)
		}
		var out api.CreateMatchResponse
		r.decode(t, &out)
		if name := out.Match.Seats[1].Name; name != "bot-"+bots[i%4] {
			t.Fatalf("a bot seat given no name is named %q", name)
		}
		(&table{h: h, id: out.Match.ID, tokens: map[int]string{0: honest.Key}}).playOut(nil)
		if _, err := proj.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		fr := ratingsOf(t, h, honest.Player.ID).Ratings["2p"]
		if fr.EstablishedMatches != i+1 {
			t.Fatalf("after %d matches against the bots, %d counted", i+1, fr.EstablishedMatches)
		}
		on := onBoard(t, h, "2p", honest.Player.ID)
		if on == fr.Provisional || on && fr.EstablishedMatches < 10 {
			t.Fatalf("after %d matches against the bots: on the board %v, rating %+v", i+1, on, fr)
		}
		if on {
			listed = i + 1
			break
		}
	}
	if listed == 0 {
		t.Fatal("30 rated matches against the bots did not put the player on the leaderboard")
	}
	// Now the player is established: a newcomer's match against it counts, and so does the
	// farmer's, which still needs nine more to rank.
	newcomer := account(t, people, "Newcomer")
	ratedChallenge(t, h, newcomer, honest)
	ratedChallenge(t, h, farmer, honest)
	if _, err := proj.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if n := ratingsOf(t, h, newcomer.Player.ID); n.Ratings["2p"].EstablishedMatches != 1 || !n.History[0].AgainstEstablished {
		t.Fatalf("the newcomer's match against an established player did not count: %+v", n)
	}
	if f := ratingsOf(t, h, farmer.Player.ID).Ratings["2p"]; f.EstablishedMatches != 1 || !f.Provisional || onBoard(t, h, "2p", farmer.Player.ID) {
		t.Fatalf("the farmer after one match against an established player: %+v", f)
	}
	t.Logf("on the leaderboard after %d rated matches against the bots", listed)
}
