package guarantees

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// botSeed seeds the bots of every run: a failure reproduces with the same choices.
const botSeed = 53

// start is the instant the suite's clock starts at.
var start = time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)

// suite is one run of the guarantees over one engine: the server, its clock, the kinds of
// match made on it and what the assertions have counted.
type suite struct {
	t      *testing.T
	engine string
	srv    *server.Server
	live   *httptest.Server // the same router on a loopback port, for the live streams
	clock  *apitest.Clock
	truth  *truths
	people *people
	kinds  []*kind
	counts *counts
	sealed *sealedAnswer // the one 409 MATCH_SEALED answer every outsider gets
	// seedBook knows every match's seed (I4); rotated and stranger are credentials every kind
	// is asked with: a key rotated away, and the key of a player no kind seats.
	seedBook *seedBook
	rotated  cred
	stranger *person
}

// engines are the stores the suite runs on; each answers the database to give the server.
var engines = []struct {
	name string
	db   func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "allfives.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.URL(t) }}, // skips, or fails in CI, without PostgreSQL
}

// config is serve's configuration with only what a test may inject changed: the database, a
// clock the suite moves, the bots' seed, short intervals, a small review budget, and limits
// on but wide enough that the suite's own requests reach the handlers' logic.
func config(db string, clock *apitest.Clock) server.Config {
	cfg := server.DefaultConfig()
	cfg.DB, cfg.Sync = db, "normal"
	cfg.Clock, cfg.BotSeed, cfg.Random = clock, botSeed, newSeeded(botSeed)
	cfg.Review = apitest.SmallReview
	cfg.SweepEvery, cfg.RatingsEvery, cfg.TournamentSweep = 20*time.Millisecond, 20*time.Millisecond, 50*time.Millisecond
	cfg.Seeks.Every = 20 * time.Millisecond
	cfg.Seeks.Rule.BotAfter = 0 // a lone seeker waits for a human: the suite pairs two
	cfg.BotWorkers = 1
	cfg.Limits = wideLimits()
	return cfg
}

// wideLimits are serve's limits, every one on, each a hundred times its default, so that
// every limit's code runs on every request and none refuses the suite's own traffic.
func wideLimits() server.Limits {
	l := server.DefaultLimits()
	for _, r := range []*api.Rate{&l.API.Players, &l.API.Challenges, &l.API.Reviews, &l.API.Tickets, &l.API.BotMatches, &l.API.Seeks} {
		r.N *= 100
	}
	l.MaxChallenges *= 100
	l.RunningReviews *= 100
	l.BotQueue *= 100
	return l
}

// seeded is a source of random bytes from a fixed seed, safe for concurrent use: the
// server's seeds, ids and tokens, the same on every run.
type seeded struct {
	mu sync.Mutex
	r  *rand.ChaCha8
}

func newSeeded(seed uint64) *seeded {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	return &seeded{r: rand.NewChaCha8(key)}
}

func (s *seeded) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Read(p)
}

// newSuite starts the server on db with every feature on.
func newSuite(t *testing.T, engine, db string) *suite {
	t.Helper()
	clock := apitest.NewClock(start)
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.Start(ctx, config(db, clock))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	live := httptest.NewServer(srv.Handler)
	t.Cleanup(func() {
		live.Close()
		cancel()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	s := &suite{t: t, engine: engine, srv: srv, live: live, clock: clock, counts: newCounts(), seedBook: &seedBook{}}
	t.Cleanup(func() { s.counts.report(t, engine) })
	s.truth = newTruths(s)
	s.people = newPeople(s)
	return s
}
