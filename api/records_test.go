package api_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository"
)

// newFileHarness is newHarness with the path of its SQLite file, for tests that change the
// file behind the store's back, and a hook to change the server's config.
func newFileHarness(t testing.TB, cfg func(*api.Config)) (*harness, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "allfives.db")
	store, err := repository.Open(context.Background(), path, repository.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := domain.NewMatchService(domain.ServiceConfig{Store: store, Bots: bot.Strategies(7)})
	c := api.Config{Service: svc, Ready: store}
	if cfg != nil {
		cfg(&c)
	}
	return &harness{t: t, e: api.New(c), svc: svc, store: store}, path
}

// fetch reads path as seat (seat < 0: a spectator) and decodes a 200 answer into out.
func (tb *table) fetch(path string, seat int, out any) *reply {
	tb.h.t.Helper()
	var hdr []string
	if seat >= 0 {
		hdr = auth(tb.tokens[seat])
	}
	r := tb.h.do(http.MethodGet, tb.path(path), nil, hdr...)
	if r.status != http.StatusOK {
		tb.h.t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	if out != nil {
		r.decode(tb.h.t, out)
	}
	return r
}

// jsonOf is v's JSON, for comparing answers decoded into different types.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// tracker follows a finished match's full log the way a reader of the events would, to judge
// each replayed view by.
type tracker struct {
	sideOf   []int
	scores   []int
	hand     int
	hands    [][]string
	boneyard []string
	line     int
	total    int
}

func newTracker(created domain.MatchCreated) *tracker {
	table, err := domain.NewTable(len(created.Players), created.Partnerships)
	if err != nil {
		panic(err)
	}
	tr := &tracker{scores: make([]int, table.Sides())}
	for s := range created.Players {
		tr.sideOf = append(tr.sideOf, table.SideOf(s))
	}
	return tr
}

func (tr *tracker) apply(e domain.Event) {
	switch d := e.Data.(type) {
	case domain.HandStarted:
		tr.hand, tr.line, tr.total = d.Hand, 0, 0
		tr.hands = nil
		for _, h := range d.Hands {
			tr.hands = append(tr.hands, domain.TileNames(h))
		}
		tr.boneyard = domain.TileNames(d.Boneyard)
	case domain.TilePlayed:
		tr.hands[d.Seat] = slices.DeleteFunc(tr.hands[d.Seat], func(n string) bool { return n == d.Tile.String() })
		tr.line++
		tr.total = d.Total
		tr.scores[tr.sideOf[d.Seat]] += d.Points
	case domain.TileDrawn:
		tr.hands[d.Seat] = append(tr.hands[d.Seat], tr.boneyard[0])
		tr.boneyard = tr.boneyard[1:]
	case domain.HandEnded:
		tr.scores = slices.Clone(d.Scores)
	case domain.MatchEnded:
		tr.scores = slices.Clone(d.Scores)
	}
}

func sortedTiles(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestReplayEveryStep replays a finished match at every step over HTTP: each step's event is
// the log's, and its view agrees with the events so far (scores, hand, line, count, every
// seat's tiles and the boneyard, all open since the match has ended); the last step is the
// final state.
func TestReplayEveryStep(t *testing.T) {
	h := newHarness(t, options{})
	tb := h.create(seed1, false, "human", "greedy", "random")
	final := tb.playOut(nil)
	full := tb.fullLog()
	var export api.ExportResponse
	tb.fetch("/export", -1, &export)
	if len(export.Events) != len(full) {
		t.Fatalf("export has %d events, the store %d", len(export.Events), len(full))
	}
	tr := newTracker(full[0].Data.(domain.MatchCreated))
	for step := 1; step <= len(full); step++ {
		tr.apply(full[step-1])
		seat := step%2 - 1 // a spectator and the human seat in turn: a finished match is open to all
		var r api.ReplayResponse
		tb.fetch(fmt.Sprintf("/replay?step=%d", step), seat, &r)
		if r.Step != step || r.Match.Version != step || jsonOf(t, r.Event) != jsonOf(t, export.Events[step-1]) {
			t.Fatalf("step %d: step %d, version %d, event %s, want %s", step, r.Step, r.Match.Version, jsonOf(t, r.Event), jsonOf(t, export.Events[step-1]))
		}
		if !slices.Equal(r.Match.Scores, tr.scores) {
			t.Fatalf("step %d (%s): scores %v, the events give %v", step, r.Event.Type, r.Match.Scores, tr.scores)
		}
		if (seat >= 0) != (r.Match.You != nil) {
			t.Fatalf("step %d as seat %d: you %+v", step, seat, r.Match.You)
		}
		hv := r.Match.Hand
		switch {
		case step == len(full):
			if hv != nil || r.Match.Status != "finished" {
				t.Fatalf("last step: status %s, hand %+v", r.Match.Status, hv)
			}
			continue
		case tr.hand == 0:
			continue // before the first deal
		case hv == nil:
			t.Fatalf("step %d (%s): no hand in a live state", step, r.Event.Type)
		}
		if r.Event.Type == "hand.ended" {
			continue // between hands: the scores above are what the step says
		}
		if hv.Number != tr.hand || len(hv.Line) != tr.line || hv.Total != tr.total || hv.Boneyard != len(tr.boneyard) {
			t.Fatalf("step %d (%s): hand %d, line %v, total %d, boneyard %d; the events give hand %d, %d tiles, total %d, boneyard %d",
				step, r.Event.Type, hv.Number, hv.Line, hv.Total, hv.Boneyard, tr.hand, tr.line, tr.total, len(tr.boneyard))
		}
		if r.Event.Type == "tile.played" && hv.Total != *r.Event.Data.Total {
			t.Fatalf("step %d: total %d, the play says %d", step, hv.Total, *r.Event.Data.Total)
		}
		if !slices.Equal(hv.BoneyardTiles, tr.boneyard) && len(tr.boneyard) > 0 {
			t.Fatalf("step %d: boneyard %v, the events give %v", step, hv.BoneyardTiles, tr.boneyard)
		}
		if len(hv.Hands) != len(tr.hands) {
			t.Fatalf("step %d: %d hands shown, want %d", step, len(hv.Hands), len(tr.hands))
		}
		for s := range tr.hands {
			if !slices.Equal(sortedTiles(hv.Hands[s]), sortedTiles(tr.hands[s])) || r.Match.Seats[s].Tiles != len(tr.hands[s]) {
				t.Fatalf("step %d: seat %d holds %v (%d tiles), the events give %v", step, s, hv.Hands[s], r.Match.Seats[s].Tiles, tr.hands[s])
			}
		}
	}
	var at api.ReplayResponse
	tb.fetch(fmt.Sprintf("/replay?step=%d", len(full)), -1, &at)
	if jsonOf(t, at.Match) != jsonOf(t, final) {
		t.Fatalf("the last step's view\n%s\nis not the final state\n%s", jsonOf(t, at.Match), jsonOf(t, final))
	}
}

// TestReplayLiveAndBadSteps: a live match replays as the caller may see it now (a seat its
// own tiles, nobody the other hands), and a missing, malformed or out-of-range step is 400.
func TestReplayLiveAndBadSteps(t *testing.T) {
	h := newHarness(t, options{})
	tb := h.create(seed1, false, "human", "human")
	tb.mustMove(0, play("5-5", ""))
	version := tb.view(-1).Version
	for step := 1; step <= version; step++ {
		for _, seat := range []int{-1, 0, 1} {
			var r api.ReplayResponse
			tb.fetch(fmt.Sprintf("/replay?step=%d", step), seat, &r)
			if hv := r.Match.Hand; hv != nil && (hv.Hands != nil || hv.BoneyardTiles != nil) {
				t.Fatalf("step %d as seat %d shows hidden tiles: %+v", step, seat, hv)
			}
			if (seat >= 0) != (r.Match.You != nil) || (seat >= 0 && r.Match.You.Seat != seat) {
				t.Fatalf("step %d as seat %d: you %+v", step, seat, r.Match.You)
			}
			if r.Event.Type == "hand.started" {
				for s, hand := range r.Event.Data.Hands {
					if (hand != nil) != (s == seat) || r.Event.Data.Boneyard != nil {
						t.Fatalf("step %d as seat %d: hand.started shows %v, boneyard %v", step, seat, r.Event.Data.Hands, r.Event.Data.Boneyard)
					}
				}
			}
		}
	}
	for _, q := range []string{"", "?step=", "?step=0", "?step=-1", "?step=x", "?step=1.5", fmt.Sprintf("?step=%d", version+1), "?step=1&step=2", "?step=1&at=2"} {
		tb.h.do(http.MethodGet, tb.path("/replay"+q), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
	h.do(http.MethodGet, "/api/v1/matches/nope/replay?step=1", nil).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
	tb.h.do(http.MethodGet, tb.path("/replay?step=1"), nil, auth("not-a-token")...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// tableSizes are the four kinds of table: 2, 3 and 4 players alone, and 4 in partnerships.
var tableSizes = []struct {
	players      int
	partnerships bool
}{{2, false}, {3, false}, {4, false}, {4, true}}

// botMatch creates a match of bots, which plays to its end inside the create call.
func (h *harness) botMatch(players int, partnerships bool, i int) *table {
	h.t.Helper()
	names := make([]string, players)
	for s := range names {
		names[s] = []string{"greedy", "random"}[(s+i)%2]
	}
	tb := h.create("", partnerships, names...)
	if v := tb.view(-1); v.Status != "finished" {
		h.t.Fatalf("a match of bots is %s after its creation", v.Status)
	}
	return tb
}

func (tb *table) audit(seat int) api.AuditReport {
	tb.h.t.Helper()
	var rep api.AuditReport
	tb.fetch("/audit", seat, &rep)
	return rep
}

func checkNames(rep api.AuditReport) []string {
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
	}
	return names
}

// TestAuditPassesOnBotMatches: every check holds on bot matches of every table size, and on
// a live match as far as it is public.
func TestAuditPassesOnBotMatches(t *testing.T) {
	h := newHarness(t, options{})
	per := 4
	if testing.Short() {
		per = 1
	}
	for _, size := range tableSizes {
		for i := range per {
			tb := h.botMatch(size.players, size.partnerships, i)
			rep := tb.audit(-1)
			version := tb.view(-1).Version
			want := []string{"hash_chain", "rules", "read_model", "seed", "deals"}
			if !rep.OK || rep.FirstBadSeq != nil || rep.Events != version || len(rep.HeadHash) != 64 || !slices.Equal(checkNames(rep), want) {
				t.Fatalf("%d players (partnerships %v), match %d: %s", size.players, size.partnerships, i, jsonOf(t, rep))
			}
			for _, c := range rep.Checks {
				if !c.OK || c.FirstBadSeq != nil || c.Detail == "" {
					t.Fatalf("check %+v", c)
				}
			}
		}
	}
	live := h.create("", true, "human", "greedy", "human", "random")
	live.mustMove(live.view(-1).Hand.Turn, asMove(live.legal(live.view(-1).Hand.Turn).LegalMoves[0]))
	for _, seat := range []int{-1, 0, 2} {
		rep := live.audit(seat)
		if !rep.OK || !slices.Equal(checkNames(rep), []string{"hash_chain", "rules", "read_model"}) {
			t.Fatalf("live match as seat %d: %s", seat, jsonOf(t, rep))
		}
	}
	h.do(http.MethodGet, "/api/v1/matches/nope/audit", nil).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
	live.h.do(http.MethodGet, live.path("/audit?deep=1"), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
}

// tamperer changes a match's rows in the SQLite file with plain SQL, as anyone with write
// access to the file could, the append-only triggers dropped first.
type tamperer struct {
	t  *testing.T
	db *sql.DB
}

func newTamperer(t *testing.T, path string) *tamperer {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tp := &tamperer{t: t, db: db}
	tp.exec("DROP TRIGGER events_no_update")
	tp.exec("DROP TRIGGER events_no_delete")
	return tp
}

func (tp *tamperer) exec(q string, args ...any) {
	tp.t.Helper()
	if _, err := tp.db.Exec(q, args...); err != nil {
		tp.t.Fatalf("%s: %v", q, err)
	}
}

func (tp *tamperer) row(id string, seq int) (typ, data string) {
	tp.t.Helper()
	if err := tp.db.QueryRow("SELECT type, data FROM events WHERE match_id = ? AND seq = ?", id, seq).Scan(&typ, &data); err != nil {
		tp.t.Fatal(err)
	}
	return typ, data
}

func (tp *tamperer) setRow(id string, seq int, typ, data string) {
	tp.t.Helper()
	tp.exec("UPDATE events SET type = ?, data = ? WHERE match_id = ? AND seq = ?", typ, data, id, seq)
}

// rehash recomputes every link from seq on, as a careful tamperer would, so that the hash
// chain holds and only the other checks can tell.
func (tp *tamperer) rehash(id string, from int) {
	tp.t.Helper()
	var prev []byte
	if from > 1 {
		if err := tp.db.QueryRow("SELECT hash FROM events WHERE match_id = ? AND seq = ?", id, from-1).Scan(&prev); err != nil {
			tp.t.Fatal(err)
		}
	}
	rows, err := tp.db.Query("SELECT seq, type, data FROM events WHERE match_id = ? AND seq >= ? ORDER BY seq", id, from)
	if err != nil {
		tp.t.Fatal(err)
	}
	type row struct {
		seq       int
		typ, data string
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.seq, &r.typ, &r.data); err != nil {
			tp.t.Fatal(err)
		}
		all = append(all, r)
	}
	if err := rows.Close(); err != nil {
		tp.t.Fatal(err)
	}
	for _, r := range all {
		hash := domain.ChainHash(prev, r.seq, domain.EventType(r.typ), []byte(r.data))
		tp.exec("UPDATE events SET prev_hash = ?, hash = ? WHERE match_id = ? AND seq = ?", prev, hash, id, r.seq)
		prev = hash
	}
}

// editJSON changes one field of an event's data.
func editJSON(t *testing.T, data, field string, value any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatal(err)
	}
	m[field] = value
	return jsonOf(t, m)
}

// firstPlays returns the seq of the first tile.played that follows another tile.played.
func firstPlays(t *testing.T, log []domain.Event) int {
	t.Helper()
	for i := 1; i < len(log); i++ {
		a, okA := log[i-1].Data.(domain.TilePlayed)
		b, okB := log[i].Data.(domain.TilePlayed)
		if okA && okB && a.Seat != b.Seat && i > 3 {
			return log[i-1].Seq
		}
	}
	t.Fatal("no two plays in a row")
	return 0
}

// TestAuditNamesTheTamperedEvent: each change made to the file behind the store's back fails
// the audit, naming the first event at fault and the check that caught it; a changed read
// model fails its own check without blaming an event.
func TestAuditNamesTheTamperedEvent(t *testing.T) {
	h, path := newFileHarness(t, nil)
	tp := newTamperer(t, path)
	cases := []struct {
		name   string
		tamper func(id string, log []domain.Event) (bad int)
		check  string // the check that must fail
	}{
		{"data edited", func(id string, log []domain.Event) int {
			k := firstPlays(t, log)
			typ, data := tp.row(id, k)
			tp.setRow(id, k, typ, editJSON(t, data, "points", log[k-1].Data.(domain.TilePlayed).Points+5))
			return k
		}, "hash_chain"},
		{"data edited, chain rehashed", func(id string, log []domain.Event) int {
			k := firstPlays(t, log)
			typ, data := tp.row(id, k)
			tp.setRow(id, k, typ, editJSON(t, data, "points", log[k-1].Data.(domain.TilePlayed).Points+5))
			tp.rehash(id, k)
			return k
		}, "rules"},
		{"event deleted", func(id string, log []domain.Event) int {
			k := len(log) / 2
			tp.exec("DELETE FROM events WHERE match_id = ? AND seq = ?", id, k)
			return k
		}, "hash_chain"},
		{"two events swapped, chain rehashed", func(id string, log []domain.Event) int {
			k := firstPlays(t, log)
			typA, dataA := tp.row(id, k)
			typB, dataB := tp.row(id, k+1)
			tp.setRow(id, k, typB, dataB)
			tp.setRow(id, k+1, typA, dataA)
			tp.rehash(id, k)
			return k
		}, "rules"},
		{"revealed seed altered, chain rehashed", func(id string, log []domain.Event) int {
			k := len(log)
			typ, data := tp.row(id, k)
			seed := log[k-1].Data.(domain.MatchEnded).Seed
			other := strings.Map(func(r rune) rune {
				if r == '0' {
					return '1'
				}
				return '0'
			}, seed[:1]) + seed[1:]
			tp.setRow(id, k, typ, editJSON(t, data, "seed", other))
			tp.rehash(id, k)
			return k
		}, "seed"},
		{"read model changed", func(id string, log []domain.Event) int {
			tp.exec("UPDATE matches SET scores = '[0,5]' WHERE id = ?", id)
			return 0
		}, "read_model"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tb := h.botMatch(2, false, i)
			if rep := tb.audit(-1); !rep.OK {
				t.Fatalf("before the change: %s", jsonOf(t, rep))
			}
			bad := tc.tamper(tb.id, tb.fullLogRaw(t))
			rep := tb.audit(-1)
			if rep.OK {
				t.Fatalf("the audit passes a tampered record: %s", jsonOf(t, rep))
			}
			if bad == 0 {
				if rep.FirstBadSeq != nil {
					t.Fatalf("first_bad_seq %d, want null: %s", *rep.FirstBadSeq, jsonOf(t, rep))
				}
			} else if rep.FirstBadSeq == nil || *rep.FirstBadSeq != bad {
				t.Fatalf("first_bad_seq %v, want %d: %s", rep.FirstBadSeq, bad, jsonOf(t, rep))
			}
			for _, c := range rep.Checks {
				if c.Name != tc.check {
					continue
				}
				if c.OK || (bad != 0 && (c.FirstBadSeq == nil || *c.FirstBadSeq != bad)) || c.Detail == "" {
					t.Fatalf("check %s: %s", c.Name, jsonOf(t, c))
				}
				return
			}
			t.Fatalf("no %s check: %s", tc.check, jsonOf(t, rep))
		})
	}
}

// fullLogRaw is the stored log, read before any tampering.
func (tb *table) fullLogRaw(t *testing.T) []domain.Event {
	t.Helper()
	events, err := tb.h.store.Events(context.Background(), tb.id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// TestExportJSONRefolds: the JSON export of finished matches of every table size folds back,
// through the domain, into the same state the API shows, and carries the log as the events
// endpoint does; a live match exports as the caller may see it.
func TestExportJSONRefolds(t *testing.T) {
	h := newHarness(t, options{})
	for i, size := range tableSizes {
		tb := h.botMatch(size.players, size.partnerships, i)
		var raw struct {
			Match  json.RawMessage `json:"match"`
			Events []domain.Event  `json:"events"`
		}
		r := tb.fetch("/export?format=json", -1, &raw)
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("Content-Type %q", ct)
		}
		m, err := domain.Rebuild(tb.id, domain.Seed{}, raw.Events)
		if err != nil {
			t.Fatalf("the export does not fold: %v", err)
		}
		want, err := h.svc.View(context.Background(), tb.id, domain.Spectator())
		if err != nil {
			t.Fatal(err)
		}
		if got := m.View(domain.Spectator()); jsonOf(t, got) != jsonOf(t, want) {
			t.Fatalf("the export folds to\n%s\nnot\n%s", jsonOf(t, got), jsonOf(t, want))
		}
		var exported api.ExportResponse
		r.decode(t, &exported)
		if jsonOf(t, exported.Match) != jsonOf(t, tb.view(-1)) || jsonOf(t, exported.Events) != jsonOf(t, tb.events(-1).Events) {
			t.Fatal("the export's match or events differ from GET match and GET events")
		}
		if jsonOf(t, raw.Events) != jsonOf(t, tb.fullLog()) {
			t.Fatal("a finished match's export is not the whole stored log")
		}
		var def api.ExportResponse
		tb.fetch("/export", -1, &def)
		if jsonOf(t, def) != jsonOf(t, exported) {
			t.Fatal("format=json is not the default")
		}
	}

	live := h.create(seed1, false, "human", "human")
	live.mustMove(0, play("5-5", ""))
	for _, seat := range []int{-1, 0, 1} {
		var exported api.ExportResponse
		live.fetch("/export", seat, &exported)
		if jsonOf(t, exported.Events) != jsonOf(t, live.events(seat).Events) || jsonOf(t, exported.Match) != jsonOf(t, live.view(seat)) {
			t.Fatalf("seat %d: the export differs from GET events and GET match", seat)
		}
	}
	for _, q := range []string{"?format=xml", "?format=", "?format=json&format=text", "?as=text"} {
		live.h.do(http.MethodGet, live.path("/export"+q), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
	h.do(http.MethodGet, "/api/v1/matches/nope/export", nil).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
	live.h.do(http.MethodGet, live.path("/export"), nil, auth("nope")...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// TestExportText: format=text is the notation of the events the caller may see, as plain
// text: everything once the match has ended, only the caller's own hand while it is live.
func TestExportText(t *testing.T) {
	h := newHarness(t, options{})
	done := h.botMatch(3, false, 0)
	r := done.fetch("/export?format=text", -1, nil)
	if ct := r.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	var want strings.Builder
	if err := domain.WriteNotation(&want, done.id, done.fullLog()); err != nil {
		t.Fatal(err)
	}
	if string(r.body) != want.String() {
		t.Fatalf("text export:\n%s\nwant:\n%s", r.body, want.String())
	}
	if !strings.Contains(string(r.body), "seed          "+done.fullLog()[len(done.fullLog())-1].Data.(domain.MatchEnded).Seed) {
		t.Fatalf("a finished match's text export does not reveal the seed:\n%s", r.body)
	}

	live := h.create(seed1, false, "human", "human")
	live.mustMove(0, play("5-5", ""))
	for _, seat := range []int{-1, 0, 1} {
		r := live.fetch("/export?format=text", seat, nil)
		v := domain.Spectator()
		if seat >= 0 {
			v = domain.SeatViewer(seat)
		}
		want.Reset()
		if err := domain.WriteNotation(&want, live.id, v.RedactAll(live.fullLog(), false)); err != nil {
			t.Fatal(err)
		}
		if string(r.body) != want.String() {
			t.Fatalf("seat %d: text export:\n%s\nwant:\n%s", seat, r.body, want.String())
		}
		if !strings.Contains(string(r.body), "secret until the match ends") {
			t.Fatalf("seat %d: a live match's text export shows a seed:\n%s", seat, r.body)
		}
	}
}
