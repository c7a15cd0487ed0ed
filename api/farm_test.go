package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/storetest"
)

// farm plays rated 2p matches through the router of a seeded server (newStandingHarness), each
// ended by a resignation, so that every result is what the test says and nothing else.
type farm struct {
	t       *testing.T
	h       *harness
	proj    *ratings.Projector
	people  *players.Service
	store   ratedStore
	matches int // rated matches ended
}

func newFarm(t *testing.T, store ratedStore) *farm {
	h, proj, people := newStandingHarness(t, store)
	return &farm{t: t, h: h, proj: proj, people: people, store: store}
}

// farmBots are the bots a player resigns to, in turn.
var farmBots = []string{"random", "greedy", "pimc", "expert"}

// resignTo is a rated match that loser's key creates against winner, a player or a bot:
// winner's seat is reserved for it (and joined with its key) or a bot's; loser resigns at
// once. The default target (250) keeps either side from winning before the resignation.
func (f *farm) resignTo(loser players.Created, winner *players.Created, bot string) {
	f.t.Helper()
	opponent := api.PlayerRequest{Kind: "bot", Bot: bot}
	if winner != nil {
		opponent = api.PlayerRequest{Kind: "human", Player: winner.Player.ID}
	}
	r := f.h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Rated: true,
		Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, opponent}}, auth(loser.Key)...)
	if r.status != http.StatusCreated {
		f.t.Fatalf("a rated match: %d %s", r.status, r.body)
	}
	var out api.CreateMatchResponse
	r.decode(f.t, &out)
	tb := &table{h: f.h, id: out.Match.ID, tokens: map[int]string{0: loser.Key}}
	if winner != nil {
		if j := tb.joinWith(1, winner.Key, ""); j.status != http.StatusCreated {
			f.t.Fatalf("the challenged player joins: %d %s", j.status, j.body)
		}
	}
	v := tb.post("/resign", loser.Key).okView(f.t)
	if v.Status != "finished" || v.WinnerSide == nil || *v.WinnerSide != 1 {
		f.t.Fatalf("after the resignation: %s, winner side %v", v.Status, v.WinnerSide)
	}
	f.matches++
}

func (f *farm) drain() {
	f.t.Helper()
	if _, err := f.proj.Drain(context.Background()); err != nil {
		f.t.Fatal(err)
	}
}

// rating is p's 2p rating as the API gives it (the zero value and false when it has none).
func (f *farm) rating(p players.Created) (api.FormatRating, bool) {
	fr, ok := ratingsOf(f.t, f.h, p.Player.ID).Ratings["2p"]
	return fr, ok
}

// rank is p's rank on /leaderboard/2p (0: not listed), and how many are listed.
func (f *farm) rank(p players.Created) (rank, listed int) {
	f.t.Helper()
	var lb api.LeaderboardResponse
	getOK(f.t, f.h, "/api/v1/leaderboard/2p?limit=100", &lb)
	if lb.NextCursor != nil {
		f.t.Fatal("more than 100 ranked players")
	}
	for _, e := range lb.Players {
		if e.Player.ID == p.Player.ID {
			rank = e.Rank
		}
	}
	return rank, len(lb.Players)
}

// report logs p's figures and returns its rating (0 when it has none) and rank.
func (f *farm) report(who string, p players.Created) (float64, int) {
	f.t.Helper()
	fr, ok := f.rating(p)
	rank, listed := f.rank(p)
	if !ok {
		f.t.Logf("%s: no 2p rating (no rated match counted), unlisted of %d", who, listed)
		return 0, 0
	}
	f.t.Logf("%s: rating %.2f, mu %.2f, sigma %.2f, %d rated matches counted, provisional %v, rank %d of %d listed (0: unlisted)",
		who, fr.Rating, fr.Mu, fr.Sigma, fr.Matches, fr.Provisional, rank, listed)
	return fr.Rating, rank
}

// loseToBots has m and h each resign n rated matches to the bots, in turn.
func (f *farm) loseToBots(n int, m, h players.Created) {
	for i := range n {
		f.resignTo(m, nil, farmBots[i%len(farmBots)])
		f.resignTo(h, nil, farmBots[i%len(farmBots)])
	}
}

// TestFarmBuysNothing is the farming rule on each engine (docs/ratings.md, "Farming"): twenty
// fresh accounts resign rated matches to M, then M and an honest H each resign ten rated
// matches to the bots. M stays off the leaderboard and its rating is no higher than H's: the
// twenty wins moved nothing. Then the live table equals a rebuild from the logs.
func TestFarmBuysNothing(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			f := newFarm(t, eng.open(t).(ratedStore))
			m, h := account(t, f.people, "Farmer M"), account(t, f.people, "Honest H")
			for i := range 20 {
				fresh := account(t, f.people, fmt.Sprintf("Fresh %02d", i))
				f.resignTo(fresh, &m, "")
			}
			f.drain()
			moved := 0
			for _, it := range ratingsOf(t, f.h, m.Player.ID).History {
				if !it.Won || it.AgainstEstablished {
					t.Fatalf("a win against a fresh account: %+v", it)
				}
				if it.Before != it.After {
					moved++
				}
			}
			if moved != 0 {
				t.Errorf("%d of M's 20 wins against fresh accounts moved its rating", moved)
			}
			f.loseToBots(10, m, h)
			f.drain()
			mRating, mRank := f.report("M", m)
			hRating, _ := f.report("H", h)
			if mRank != 0 {
				t.Errorf("M is rank %d on /leaderboard/2p", mRank)
			}
			if mRating > hRating {
				t.Errorf("M's rating %.2f is above H's %.2f", mRating, hRating)
			}
			storetest.CheckRatingsRebuild(t, context.Background(), f.store, f.matches)
		})
	}
}

// TestFarmEstablishedThrowaways measures the costlier farm on SQLite (docs/ratings.md,
// "Farming"), which the rule lets through at a price: each throwaway account first resigns
// rated matches to the bots, in turn, until it is established (ten at least, as docs/ratings.md
// puts it), then resigns to M; then M and H each resign ten to the bots. It logs what M
// reaches and what it cost: twenty throwaways resigning once each, on a fresh server (the
// bots new too) and on one whose bots have played one another first; and one throwaway
// resigning twenty and a hundred times. It checks what the rule says of it: each
// throwaway's matches against the bots all counted, a throwaway's resignation to a
// provisional M moved nothing of the throwaway's, and every resignation counted for M.
func TestFarmEstablishedThrowaways(t *testing.T) {
	for _, c := range []struct {
		name       string
		warm       int // rated matches of the bots among themselves first
		throwaways int
		resigned   int // resignations to M, shared evenly by the throwaways
	}{{"new bots", 0, 20, 20}, {"rated bots", 120, 20, 20}, {"rated bots, one throwaway", 120, 1, 20}, {"rated bots, one throwaway, 100", 120, 1, 100}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFarm(t, engines[0].open(t).(ratedStore))
			for i := range c.warm {
				a, b := farmBots[i%4], farmBots[(i+1+i/4%3)%4]
				f.h.createMatch(api.CreateMatchRequest{Rated: true, Players: []api.PlayerRequest{{Kind: "bot", Bot: a}, {Kind: "bot", Bot: b}}})
				f.matches++
			}
			f.drain()
			for _, b := range farmBots {
				f.report("bot-"+b, players.Created{Player: players.Player{ID: "bot-" + b}})
			}
			m, h := account(t, f.people, "Farmer M"), account(t, f.people, "Honest H")
			paid, most := 0, 0
			for i := range c.throwaways {
				tw := account(t, f.people, fmt.Sprintf("Throwaway %02d", i))
				n := 0
				for ; n < 10 || f.provisional(tw); n++ {
					if n == 60 {
						t.Fatalf("throwaway %d is provisional after %d rated matches against the bots", i, n)
					}
					f.resignTo(tw, nil, farmBots[n%len(farmBots)])
					f.drain()
				}
				if fr, _ := f.rating(tw); fr.Matches != n {
					t.Fatalf("throwaway %d: %d of its %d matches against the bots counted", i, fr.Matches, n)
				}
				paid, most = paid+n, max(most, n)
				before, _ := f.rating(tw)
				for range c.resigned / c.throwaways {
					f.resignTo(tw, &m, "")
				}
				if f.drain(); f.provisional(m) {
					if after, _ := f.rating(tw); after != before {
						t.Fatalf("throwaway %d's resignations to a provisional M moved its rating: %+v, then %+v", i, before, after)
					}
				}
			}
			f.drain()
			if fr, _ := f.rating(m); fr.Matches != c.resigned {
				t.Fatalf("M counted %d of the %d resignations of established throwaways", fr.Matches, c.resigned)
			}
			f.report(fmt.Sprintf("M after the %d resignations", c.resigned), m)
			f.loseToBots(10, m, h)
			f.drain()
			mRating, _ := f.report("M", m)
			hRating, _ := f.report("H", h)
			t.Logf("cost: %d rated matches of %d throwaways against the bots (at most %d each), %d resignations to M, M's 10 against the bots; M's rating %.2f against H's %.2f",
				paid, c.throwaways, most, c.resigned, mRating, hRating)
			storetest.CheckRatingsRebuild(t, context.Background(), f.store, f.matches)
		})
	}
}

// provisional says whether p's 2p rating is provisional (or p has none).
func (f *farm) provisional(p players.Created) bool {
	fr, ok := f.rating(p)
	return !ok || fr.Provisional
}
