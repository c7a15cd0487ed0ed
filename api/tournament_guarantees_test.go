package api_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/repository/sqlite"
)

// ratedCup is a cup (the real router, tournaments driven as serve drives them) with the
// ratings served, and the projection that rates them, run by the test when it asks.
type ratedCup struct {
	*cup
	proj *ratings.Projector
}

func newRatedCup(t *testing.T, opts ...apitest.Option) ratedCup {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	opts = append([]apitest.Option{apitest.WithStore(store), apitest.Reviews(nil),
		apitest.Tournaments(func(c *tournaments.Config) { c.TableGrace = time.Millisecond }),
		apitest.ServerConfig(func(c *api.Config) { c.Ratings = ratings.NewService(store) })}, opts...)
	h := newHarness(t, opts...)
	return ratedCup{cup: &cup{t: t, e: h.e, svc: h.svc, tours: h.Tournaments, stop: h.Stop},
		proj: ratings.NewProjector(ratings.Config{Store: store, Logs: store})}
}

// rate runs the projection until the queue holds nothing it may rate now.
func (c ratedCup) rate() {
	c.t.Helper()
	if _, err := c.proj.Drain(context.Background()); err != nil {
		c.t.Fatal(err)
	}
}

// advance does at once whatever tournament id is due, as the driver would.
func (c *cup) advance(id string) {
	c.t.Helper()
	if err := c.tours.Advance(context.Background(), id); err != nil {
		c.t.Fatal(err)
	}
}

// tournamentRecord is what a tournament shows of its log: its version, its export's events,
// its audit's count and head hash.
type tournamentRecord struct {
	version, events int
	head            string
	export          []byte
}

func (c *cup) record(id string) tournamentRecord {
	c.t.Helper()
	var audit api.TournamentAudit
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/audit", "", nil, &audit)
	if !audit.OK {
		c.t.Fatalf("tournament %s audits: %+v", id, audit)
	}
	var x struct {
		Tournament api.TournamentView `json:"tournament"`
		Events     json.RawMessage    `json:"events"`
	}
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/export", "", nil, &x)
	return tournamentRecord{version: c.tournament(id).Version, events: audit.Events, head: audit.HeadHash, export: x.Events}
}

// fourPlayers makes four players and returns their ids and keys, the first the organiser.
func (c *cup) fourPlayers() (ids []string, keys map[string]string) {
	keys = map[string]string{}
	for _, name := range []string{"Ann", "Ben", "Cat", "Dan"} {
		id, key := c.player(name)
		ids = append(ids, id)
		keys[id] = key
	}
	return ids, keys
}

// startedDuplicate creates a one-round duplicate 2p tournament of the four players, starts it
// and waits for both tables' matches.
func (c *cup) startedDuplicate(ids []string, keys map[string]string, rated bool) (string, api.TournamentView) {
	c.t.Helper()
	org := keys[ids[0]]
	id := c.createTournament(org, api.CreateTournamentRequest{Name: "Dup", Format: "2p", System: "swiss", Rounds: 1, Duplicate: true, Rated: rated, TurnSeconds: 600})
	for _, p := range ids {
		c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", keys[p], nil, nil)
	}
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", org, nil, nil)
	v := c.waitFor(id, "dealt", func(v api.TournamentView) bool {
		return len(v.Rounds) == 1 && v.Rounds[0].Tables[0].Match != "" && v.Rounds[0].Tables[1].Match != ""
	})
	return id, v
}

// TestDuplicateRoundLogsTablesAtItsEnd: while a duplicate round runs, a table that ended
// changes nothing the tournament shows: its version, its export's events, its audit's count
// and head hash stay as they were. When the last table ends, every table's table.ended is
// appended together with round.ended, and the log still audits, online and offline.
func TestDuplicateRoundLogsTablesAtItsEnd(t *testing.T) {
	c := newCup(t)
	ids, keys := c.fourPlayers()
	id, v := c.startedDuplicate(ids, keys, false)
	one, two := v.Rounds[0].Tables[0], v.Rounds[0].Tables[1]
	before := c.record(id)
	c.must(http.StatusOK, "POST", "/api/v1/matches/"+one.Match+"/resign", keys[one.Seats[0].Player], nil, nil)
	c.advance(id) // whatever the driver would do of the table's end, done now
	after := c.record(id)
	if after.version != before.version || after.events != before.events || after.head != before.head || string(after.export) != string(before.export) {
		t.Fatalf("a table's end mid-round shows: version %d -> %d, audit %d events %s -> %d events %s, export %s -> %s",
			before.version, after.version, before.events, before.head, after.events, after.head, before.export, after.export)
	}

	c.must(http.StatusOK, "POST", "/api/v1/matches/"+two.Match+"/resign", keys[two.Seats[1].Player], nil, nil)
	c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	var x api.TournamentExport
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/export", "", nil, &x)
	var types []string
	var at []time.Time
	for _, e := range x.Events[before.events:] {
		types = append(types, e.Type)
		at = append(at, e.At)
	}
	want := []string{"table.ended", "table.ended", "round.ended", "tournament.ended"}
	if !slices.Equal(types, want) || !at[0].Equal(at[2]) || !at[1].Equal(at[2]) {
		t.Fatalf("the round's end appended %v at %v, want %v together", types, at, want)
	}
	if off := c.offline(id); !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
	c.record(id) // audits
}

// TestTournamentCancelEndsItsMatchesFirst: the organiser enters its own rated duplicate
// tournament, starts it and cancels it while the match is played. The match ends cancelled
// (tournament_cancelled) before the round's seed shows: it is never rated, and its export
// verifies as any closed match's, its revealed seed the round's. The round has ended.
func TestTournamentCancelEndsItsMatchesFirst(t *testing.T) {
	c := newRatedCup(t)
	org, orgKey := c.player("Organiser")
	bob, bobKey := c.player("Bob")
	id := c.createTournament(orgKey, api.CreateTournamentRequest{Name: "Mine", Format: "2p", System: "swiss", Rounds: 1, Duplicate: true, Rated: true, TurnSeconds: 600})
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", orgKey, nil, nil)
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", bobKey, nil, nil)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", orgKey, nil, nil)
	v := c.waitFor(id, "dealt", func(v api.TournamentView) bool { return len(v.Rounds) == 1 && v.Rounds[0].Tables[0].Match != "" })
	m := v.Rounds[0].Tables[0].Match
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/cancel", orgKey, nil, &v)
	var match api.MatchView
	c.must(http.StatusOK, "GET", "/api/v1/matches/"+m, "", nil, &match)
	seed := v.Rounds[0].Seed
	if seed == "" || match.Status != "cancelled" || match.Cancelled == nil || match.Cancelled.Reason != "tournament_cancelled" {
		t.Fatalf("after the cancel the round's seed is %q and its match %s (%+v)", seed, match.Status, match.Cancelled)
	}
	if v.Rounds[0].Status != "ended" {
		t.Fatalf("the cancelled tournament's round is %s", v.Rounds[0].Status)
	}
	c.rate()
	for _, p := range []string{org, bob} {
		var pr api.PlayerRatingsResponse
		if b := c.must(http.StatusOK, "GET", "/api/v1/players/"+p+"/ratings", "", nil, &pr); len(pr.History) != 0 {
			t.Fatalf("a cancelled match was rated: %s", b)
		}
	}
	if got := verifyExport(t, c.cup, m); got != seed {
		t.Fatalf("the cancelled match reveals the seed %q, its round %q", got, seed)
	}
	// Its record is open, as a finished match's: the replay shows every hand, in the deal's
	// event and in the match after it.
	for step := 1; step <= match.Version; step++ {
		var rp api.ReplayResponse
		b := c.must(http.StatusOK, "GET", "/api/v1/matches/"+m+"/replay?step="+strconv.Itoa(step), "", nil, &rp)
		if rp.Event.Type != "hand.started" {
			continue
		}
		if rp.Match.Hand == nil || len(rp.Match.Hand.Hands) != 2 || strings.Contains(string(b), `"hands":[null`) {
			t.Fatalf("the replay of the cancelled match hides its hands: %s", b)
		}
	}
	var a api.AuditReport
	if b := c.must(http.StatusOK, "GET", "/api/v1/matches/"+m+"/audit", "", nil, &a); !a.OK || a.HeadHash == nil {
		t.Fatalf("audit of the cancelled match: %s", b)
	}
	if off := c.offline(id); !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
}

// verifyExport checks match id's export offline, as `allfives verify` does: every event
// carries its link, the chain holds, each raw_data says what its data says, and the events
// follow from the rules, the seed revealed and every deal re-derived from it. It returns the
// revealed seed.
func verifyExport(t *testing.T, c *cup, id string) string {
	t.Helper()
	var exp api.ExportResponse
	c.must(http.StatusOK, "GET", "/api/v1/matches/"+id+"/export", "", nil, &exp)
	var links []audit.ChainLink
	var log audit.LogRead
	for _, e := range exp.Events {
		if e.PrevHash == nil || e.Hash == nil || e.RawData == nil {
			t.Fatalf("seq %d of %s's export carries no link", e.Seq, id)
		}
		prev, _ := hex.DecodeString(*e.PrevHash)
		hash, _ := hex.DecodeString(*e.Hash)
		typ := domain.EventType(e.Type)
		links = append(links, audit.ChainLink{Seq: e.Seq, Type: typ, Data: []byte(*e.RawData), PrevHash: prev, Hash: hash})
		d, err := domain.DecodeEventData(typ, []byte(*e.RawData))
		if err != nil {
			t.Fatal(err)
		}
		ev := domain.Event{Seq: e.Seq, Type: typ, At: e.At, Data: d}
		if jsonOf(t, api.ToEvents([]domain.Event{ev})[0].Data) != jsonOf(t, e.Data) {
			t.Fatalf("seq %d: raw_data %s, data %s", e.Seq, *e.RawData, jsonOf(t, e.Data))
		}
		log.Events = append(log.Events, ev)
	}
	if r := audit.VerifyLinks(links); !r.OK {
		t.Fatalf("%s's chain: %+v", id, r)
	}
	if !audit.Closed(log.Events) {
		t.Fatalf("%s's export is not of a closed match", id)
	}
	var names []string
	for _, ch := range audit.Events(id, log, domain.Spectator()) {
		names = append(names, ch.Name)
		if !ch.OK {
			t.Fatalf("%s's %s check: %s", id, ch.Name, ch.Detail)
		}
	}
	if !slices.Contains(names, audit.CheckDeals) {
		t.Fatalf("%s's deals are not checked: %v", id, names)
	}
	last := log.Events[len(log.Events)-1].Data
	switch d := last.(type) {
	case domain.MatchCancelled:
		return d.Seed
	case domain.MatchEnded:
		return d.Seed
	}
	return ""
}
