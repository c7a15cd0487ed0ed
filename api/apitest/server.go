// Package apitest is the one way tests build the real server: Harness (New, with options: the
// store, SQLite on a file in the test's own temporary directory by default, or PostgreSQL;
// players, reviews, clock, limits, a live HTTP server), used by the tests of package api, and
// Server, the live server the web client's, the generated client's and the load tool's tests
// talk to. It holds the one hand-moved Clock and the one SyncBuffer of the tests.
package apitest

import (
	"net/http/httptest"
	"testing"

	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/domain/review"
)

// SmallReview is the review engine's budget in these tests: a review takes a fraction of a
// second instead of seconds.
var SmallReview = review.Options{Rollouts: 40, HindsightNodes: 300, ParRuns: 1, ParRollouts: 20}

// Server starts the API over a fresh SQLite file (sync=normal: these tests do not cut the
// power) on a loopback port, with reviews on SmallReview's budget, its bots seeded with seed.
// The server and the store close when the test ends.
func Server(t testing.TB, seed uint64) *httptest.Server {
	t.Helper()
	return New(t, Bots(seed), Reviews(nil), Live(nil)).Server
}

// Bots seeds every bot strategy with seed (7 without).
func Bots(seed uint64) Option {
	return ServiceConfig(func(sc *referee.ServiceConfig) { sc.Bots = bot.Strategies(seed) })
}
