package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/tournament"
)

// TestTournamentBotTablesCountAgainstTheLimit: with the default limits, a tournament of 256
// bots starts (never a 500): its tables of bots only count against the organiser's bots-only
// limit, so only as many start at once as that limit allows, the rest waiting, and the
// organiser's next match of bots only is refused as its own would be.
func TestTournamentBotTablesCountAgainstTheLimit(t *testing.T) {
	c := newRatedCup(t, apitest.Limits(api.DefaultLimits()), apitest.ServiceConfig(func(sc *referee.ServiceConfig) {
		sc.BotWorkers, sc.BotQueue = referee.DefaultBotWorkers(), referee.DefaultBotQueue
	}))
	_, key := c.player("Organiser")
	id := c.createTournament(key, api.CreateTournamentRequest{Name: "Bots", Format: "2p", System: "swiss", Rounds: 1},
		repeatBots(tournament.MaxEntries, "random", "greedy")...)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", key, nil, nil)
	v := c.tournament(id)
	created := 0
	for _, tb := range v.Rounds[0].Tables {
		if tb.Match != "" {
			created++
		}
	}
	limit := api.DefaultLimits().BotMatches.N
	if created == 0 || created > limit {
		t.Fatalf("%d of %d tables of bots started at once, the organiser's limit is %d", created, len(v.Rounds[0].Tables), limit)
	}
	bots := api.CreateMatchRequest{Players: []api.PlayerRequest{{Name: "a", Kind: "bot", Bot: "random"}, {Name: "b", Kind: "bot", Bot: "greedy"}}}
	if code, b := c.call("POST", "/api/v1/matches", key, bots); code != http.StatusTooManyRequests {
		t.Fatalf("the organiser's match of bots after its tournament's tables: %d %s", code, b)
	}
}

// TestTournamentQueuesTablesForTheBotPool: a round of bots' tables larger than the bot pool
// starts (never a 500): the tables the pool cannot take wait, and start as it frees, until the
// tournament is played out and audits.
func TestTournamentQueuesTablesForTheBotPool(t *testing.T) {
	c := newRatedCup(t, apitest.ServiceConfig(func(sc *referee.ServiceConfig) { sc.BotWorkers, sc.BotQueue = 1, 2 }))
	_, key := c.player("Organiser")
	id := c.createTournament(key, api.CreateTournamentRequest{Name: "Pool", Format: "2p", System: "swiss", Rounds: 2, Target: 5},
		repeatBots(12, "random", "greedy")...)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", key, nil, nil)
	v := c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	for _, r := range v.Rounds {
		for _, tb := range r.Tables {
			if tb.Match == "" || len(tb.Scores) != 2 {
				t.Fatalf("round %d table %d: match %q scores %v", r.Round, tb.Table, tb.Match, tb.Scores)
			}
		}
	}
	if off := c.offline(id); !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
}

// TestTournamentBotTableGivesItsCountBack: a table of bots only that the full bot pool refuses
// gives its count back to the organiser's limit, however often it is retried: as the pool
// frees, the tables start until the limit, not fewer.
func TestTournamentBotTableGivesItsCountBack(t *testing.T) {
	const limit = 3
	c := newRatedCup(t, apitest.Limits(api.Limits{BotMatches: api.Rate{N: limit, Per: time.Hour}}),
		apitest.ServiceConfig(func(sc *referee.ServiceConfig) { sc.BotWorkers, sc.BotQueue = 1, 1 }))
	_, key := c.player("Organiser")
	id := c.createTournament(key, api.CreateTournamentRequest{Name: "Few", Format: "2p", System: "swiss", Rounds: 1, Target: 50},
		repeatBots(12, "random", "greedy")...)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", key, nil, nil)
	ended := func(v api.TournamentView) (started, done int) {
		for _, tb := range v.Rounds[0].Tables {
			if tb.Match != "" {
				started++
				var m api.MatchView
				if c.must(http.StatusOK, "GET", "/api/v1/matches/"+tb.Match, "", nil, &m); m.Status == "finished" {
					done++
				}
			}
		}
		return started, done
	}
	v := c.waitFor(id, "started as many tables as its limit", func(v api.TournamentView) bool {
		started, done := ended(v)
		return started == limit && done == limit
	})
	c.advance(id)
	if started, _ := ended(c.tournament(id)); started != limit || len(v.Rounds[0].Tables) != 6 {
		t.Fatalf("%d of %d tables started, the limit is %d", started, len(v.Rounds[0].Tables), limit)
	}
}
