package storetest

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/tournament"
	"github.com/allfives/allfives/repository/sqlrow"
)

// sealedBase is the start of the sealed ratings' tests; the nanoseconds check that a round's
// end keeps them wherever it is stored.
var sealedBase = time.Date(2026, 12, 6, 9, 0, 0, 123456789, time.UTC)

// sealedWorld is a rated duplicate round on instance a of a store (its referee, players and
// tournament service, each with a clock the test sets) and the projection of instance b.
type sealedWorld struct {
	t      *testing.T
	ctx    context.Context
	a, b   RatingsStore
	clock  *refereetest.Clock // the referee's
	tclock *refereetest.Clock // the tournament service's: another instance's clock
	svc    *referee.MatchService
	tours  *tournaments.Service
	proj   *ratings.Projector
	keys   map[string]string // player -> key
	id     string            // the tournament
	tables [][]string        // the round's tables: players by seat
	match  []string          // the round's matches by table
}

// newSealedWorld starts the round: four players named after name, entered and seated.
func newSealedWorld(t *testing.T, name string, a, b RatingsStore) *sealedWorld {
	w := &sealedWorld{t: t, ctx: context.Background(), a: a, b: b, keys: map[string]string{},
		clock: refereetest.NewClock(sealedBase), tclock: refereetest.NewClock(sealedBase)}
	people := players.NewService(players.Config{Store: a})
	w.svc = referee.NewMatchService(referee.ServiceConfig{Store: a, Bots: fastBots(5), Players: people, Clock: w.clock})
	t.Cleanup(w.svc.Close)
	w.tours = tournaments.New(tournaments.Config{Store: a.(tournaments.Store), Matches: w.svc, Players: people, Clock: w.tclock})
	w.proj = ratings.NewProjector(ratings.Config{Store: b, Logs: b})
	var org string
	for i := range 4 {
		c, err := people.Create(w.ctx, fmt.Sprintf("%s %d", name, i))
		if err != nil {
			t.Fatal(err)
		}
		w.keys[c.Player.ID] = c.Key
		if i == 0 {
			org = c.Key
		}
	}
	st, err := w.tours.Create(w.ctx, org, tournament.Spec{Name: name, Format: tournament.Format2P, System: tournament.Swiss, Rounds: 1,
		Duplicate: true, Rated: true, TurnSeconds: 600})
	if err != nil {
		t.Fatal(err)
	}
	w.id = st.ID
	for _, key := range w.keys {
		if _, err := w.tours.Enter(w.ctx, w.id, key, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.tours.Start(w.ctx, w.id, org); err != nil {
		t.Fatal(err)
	}
	got, err := w.tours.Get(w.ctx, w.id)
	if err != nil {
		t.Fatal(err)
	}
	r := got.State.Rounds[0]
	for i, tb := range r.Pairing.Tables {
		w.tables, w.match = append(w.tables, tb.Seats), append(w.match, r.Matches[i])
	}
	if len(w.match) != 2 || slices.Contains(w.match, "") {
		t.Fatalf("the round's tables: %v", w.match)
	}
	return w
}

// resign ends table i at the referee's time at: its seat 0 resigns.
func (w *sealedWorld) resign(i int, at time.Duration) {
	w.t.Helper()
	w.clock.Set(sealedBase.Add(at))
	v, err := w.svc.Authenticate(w.ctx, w.match[i], w.keys[w.tables[i][0]])
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.svc.Resign(w.ctx, w.match[i], v); err != nil {
		w.t.Fatal(err)
	}
}

// botsMatch is a rated match of two bots, which ends as it is created, at the referee's time at.
func (w *sealedWorld) botsMatch(at time.Duration) string {
	w.t.Helper()
	w.clock.Set(sealedBase.Add(at))
	c, err := w.svc.Create(w.ctx, referee.CreateRequest{Rated: true, Target: 25, Players: []domain.PlayerInfo{
		{Kind: domain.Bot, Bot: bot.NameRandom}, {Kind: domain.Bot, Bot: bot.NameGreedy}}})
	if err != nil {
		w.t.Fatal(err)
	}
	return c.Match.ID
}

// advance drives the tournament at the tournament service's time at.
func (w *sealedWorld) advance(at time.Duration) {
	w.t.Helper()
	w.tclock.Set(sealedBase.Add(at))
	if err := w.tours.Advance(w.ctx, w.id); err != nil {
		w.t.Fatal(err)
	}
}

func (w *sealedWorld) rate() {
	w.t.Helper()
	if _, err := w.proj.Drain(w.ctx); err != nil {
		w.t.Fatal(err)
	}
}

// unrated checks that table i's match and its players show no rating anywhere.
func (w *sealedWorld) unrated(i int) {
	w.t.Helper()
	if cs, err := w.b.MatchChanges(w.ctx, w.match[i]); err != nil || len(cs) != 0 {
		w.t.Fatalf("table %d's sealed match has changes %v (%v)", i+1, cs, err)
	}
	for _, p := range w.tables[i] {
		cs, err := w.b.PlayerChanges(w.ctx, p, "", nil, 10)
		if err != nil || len(cs) != 0 {
			w.t.Fatalf("%s's history holds %v (%v) while its round runs", p, cs, err)
		}
		st, err := w.b.PlayerStandings(w.ctx, p)
		if err != nil || len(st) != 0 {
			w.t.Fatalf("%s's standings %v (%v) while its round runs", p, st, err)
		}
	}
	rebuilt, err := w.proj.Rebuild(w.ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	if slices.ContainsFunc(rebuilt.Done, func(q ratings.Queued) bool { return q.MatchID == w.match[i] }) {
		w.t.Fatalf("the rebuild rates table %d's sealed match", i+1)
	}
}

// RunSealedRatings is the projection's contract for the matches of a duplicate round
// (docs/ratings.md, "The projection"): a table that ended is rated only when its round ends,
// at the round's end, in the order (round's end, match id), whatever the order its match and
// the others ended in; and the live table equals the rebuild. Instance a plays (the
// tournament's clock behind the referee's, as another instance's may be); instance b rates.
// A rated match that ends after the round's last table, but is rated before the round's end
// commits at an earlier time, makes the projection rewind.
func RunSealedRatings(t *testing.T, inst RatingsInstances) {
	w := newSealedWorld(t, "Sealed", inst.Open(t, "a"), inst.Open(t, "b"))
	w.resign(0, 20*time.Second)
	w.advance(21 * time.Second) // nothing to log of a table mid-round
	before := w.botsMatch(30 * time.Second)
	w.rate()
	w.unrated(0)
	w.resign(1, 40*time.Second)
	after := w.botsMatch(50 * time.Second)
	w.rate()
	w.unrated(0)
	w.unrated(1)
	rewinds := w.proj.Rewinds()
	w.advance(45 * time.Second) // the round ends: its seed revealed at 45 s
	w.rate()
	if w.proj.Rewinds() == rewinds {
		t.Fatal("no rewind: the round ended before a match rated already")
	}
	changes, err := w.b.AllChanges(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, c := range changes {
		if len(order) == 0 || order[len(order)-1] != c.MatchID {
			order = append(order, c.MatchID)
		}
		if slices.Contains(w.match, c.MatchID) && !c.EndedAt.Equal(sealedBase.Add(45*time.Second)) {
			t.Fatalf("%s of the round is rated at %s, its round ended at %s", c.MatchID, c.EndedAt, sealedBase.Add(45*time.Second))
		}
	}
	sealed := slices.Sorted(slices.Values(w.match))
	if want := []string{before, sealed[0], sealed[1], after}; !slices.Equal(order, want) {
		t.Fatalf("rated in the order %v, want %v: (round's end, match id)", order, want)
	}
	CheckRatingsRebuild(t, w.ctx, w.b, 4)

	// A match dealt from the round's seed that ends after the round's end committed (one an
	// instance created and died before logging, played on), by a clock behind: it is queued,
	// and rated, at the round's end, as the rebuild keys it.
	seed, err := w.a.(tournaments.Store).RoundSeed(w.ctx, w.id, 1)
	if err != nil {
		t.Fatal(err)
	}
	w.clock.Set(sealedBase.Add(44 * time.Second))
	late, err := w.svc.Create(w.ctx, referee.CreateRequest{Rated: true, Entered: true, Target: 25, Seed: hex.EncodeToString(seed),
		Players: []domain.PlayerInfo{{Kind: domain.Bot, Bot: bot.NamePIMC}, {Kind: domain.Bot, Bot: bot.NameExpert}}})
	if err != nil {
		t.Fatal(err)
	}
	w.rate()
	if cs, err := w.b.MatchChanges(w.ctx, late.Match.ID); err != nil || len(cs) != 2 || !cs[0].EndedAt.Equal(sealedBase.Add(45*time.Second)) {
		t.Fatalf("a match of the round that ended after its round: %+v (%v), want rated at the round's end", cs, err)
	}
	CheckRatingsRebuild(t, w.ctx, w.b, 5)

	// A round cut short by a cancel: the table that had ended is rated at the cancel, which
	// revealed the seed; the one being played ends cancelled, and is never rated.
	c := newSealedWorld(t, "Cut", w.a, w.b)
	c.resign(0, 60*time.Second)
	c.rate()
	c.unrated(0)
	c.tclock.Set(sealedBase.Add(70 * time.Second))
	got, err := c.tours.Get(c.ctx, c.id)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.tours.Cancel(c.ctx, c.id, c.keys[got.State.Organiser]); err != nil {
		t.Fatal(err)
	}
	c.rate()
	cs, err := c.b.MatchChanges(c.ctx, c.match[0])
	if err != nil || len(cs) != 2 || !cs[0].EndedAt.Equal(sealedBase.Add(70*time.Second)) {
		t.Fatalf("the ended table of a round cut short: %+v (%v), want rated at the cancel", cs, err)
	}
	c.unrated(1)
	CheckRatingsRebuild(t, c.ctx, c.b, 6)
}

// RunSealedRatingsMigration checks migration 00016 on a database that a server before it
// left: a rated duplicate round that ended, rated at its matches' own ends, and one that still
// runs with a table ended. After the Up, each revealed seal holds the time of the event that
// revealed it, to the nanosecond; the projection starts again from the logs, rating the ended
// round's matches at its end and holding the running round's; and the live table equals the
// rebuild.
func RunSealedRatingsMigration(t *testing.T, m StandingMigration, beforeSealed int64) {
	w := newSealedWorld(t, "Ended", m.Store, m.Store)
	w.resign(0, 20*time.Second)
	w.resign(1, 40*time.Second)
	w.advance(45 * time.Second)
	ended := w.match
	w2 := newSealedWorld(t, "Running", m.Store, m.Store)
	w2.resign(0, 50*time.Second)
	w2.advance(55 * time.Second)

	m.Down(t, beforeSealed)
	m.exec(t, `INSERT INTO ratings (player_id, format, mu, sigma, rating, matches, wins, ranked) VALUES ('bot-random', '2p', 1, 1, -2, 99, 0, ?)`, true)
	m.Up(t)
	s := m.Reopen(t)
	var revealed []string
	if err := m.DB().Raw(`SELECT revealed_at FROM tournament_seals WHERE revealed_at IS NOT NULL`).Scan(&revealed).Error; err != nil {
		t.Fatal(err)
	}
	if want := sqlrow.FormatTime(sealedBase.Add(45 * time.Second)); !slices.Equal(revealed, []string{want}) {
		t.Fatalf("revealed_at after the migration %v, want [%s]", revealed, want)
	}
	if n := m.count(t, `SELECT count(*) FROM ratings`); n != 0 {
		t.Fatalf("%d ratings of the rule before are left", n)
	}
	if n := m.count(t, `SELECT count(*) FROM rating_queue WHERE commitment IS NOT NULL`); n != 3 {
		t.Fatalf("%d matches of duplicate rounds queued again with their commitment, want 3", n)
	}
	if _, err := ratings.NewProjector(ratings.Config{Store: s, Logs: s}).Drain(w.ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range ended {
		cs, err := s.MatchChanges(w.ctx, id)
		if err != nil || len(cs) != 2 || !cs[0].EndedAt.Equal(sealedBase.Add(45*time.Second)) {
			t.Fatalf("the ended round's match %s after the migration: %+v (%v)", id, cs, err)
		}
	}
	if cs, err := s.MatchChanges(w.ctx, w2.match[0]); err != nil || len(cs) != 0 {
		t.Fatalf("the running round's ended match is rated after the migration: %+v (%v)", cs, err)
	}
	CheckRatingsRebuild(t, w.ctx, s, 2)
}
