// Package apitest starts the real server for the tests of the packages that talk to it over
// HTTP: the web client, the generated Go client and the load tool. It is the API, the match
// service with every bot strategy, the lasting players, and the SQLite store on a file in the
// test's own temporary directory, as `allfives serve` wires them.
package apitest

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/domain/players"
	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/domain/review"
	"github.com/allfives/allfives/domain/reviewer"
	"github.com/allfives/allfives/repository/sqlite"
)

// SmallReview is the review engine's budget in these tests: a review takes a fraction of a
// second instead of seconds.
var SmallReview = review.Options{Rollouts: 40, HindsightNodes: 300, ParRuns: 1, ParRollouts: 20}

// Server starts the API over a fresh SQLite file (sync=normal: these tests do not cut the
// power) on a loopback port, its bots seeded with seed. The server and the store close when
// the test ends.
func Server(t testing.TB, seed uint64) *httptest.Server {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(seed), Players: people})
	// Reviews on small budgets: the tests look at what a review shows, not at its strength.
	reviews := reviewer.New(reviewer.Config{Store: store, Matches: svc, Options: SmallReview})
	t.Cleanup(reviews.Close)
	// Play now, its matcher seating bots after 2 s rather than serve's 15, so that a test of a
	// lone seeker does not wait long (docs/matchmaking.md).
	rule := matchmaking.DefaultRule()
	rule.BotAfter = 2 * time.Second
	matcher := seeks.New(seeks.Config{Store: store, Matches: svc, Keys: people, Standings: store, Rule: rule, Every: 50 * time.Millisecond})
	ctx, stop := context.WithCancel(context.Background())
	matched := make(chan struct{})
	go func() { defer close(matched); matcher.Run(ctx) }()
	t.Cleanup(func() { stop(); <-matched })
	srv := httptest.NewServer(api.New(api.Config{Service: svc, Ready: store, Reviews: reviews, Players: people, Seeks: matcher}))
	t.Cleanup(srv.Close)
	return srv
}
