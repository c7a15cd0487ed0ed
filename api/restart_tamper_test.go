package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlite"
)

// restartOn is a fresh server over the SQLite file at path, as after a restart: nothing of the
// old server's cache survives.
func restartOn(t *testing.T, path string) *harness {
	t.Helper()
	return serverOn(t, path, 0)
}

// serverOn is a server over the SQLite file at path whose bot pool has workers workers (0:
// bots play inside the requests).
func serverOn(t testing.TB, path string, workers int) *harness {
	t.Helper()
	return serverWith(t, path, sqlite.Options{Sync: "normal"}, workers)
}

// serverWith is serverOn with the store's options.
func serverWith(t testing.TB, path string, opts sqlite.Options, workers int) *harness {
	t.Helper()
	return newHarness(t, apitest.SQLiteFile(path, opts), apitest.WithoutPlayers(),
		apitest.ServiceConfig(func(c *referee.ServiceConfig) { c.BotWorkers = workers }))
}

// restartCase is one change made to the file while the server is down: tamper makes it on a
// fresh match and returns the first event at fault (0: none); check is the check that must fail.
type restartCase struct {
	name   string
	live   bool // the change is made to a live match with a keyed move, not a finished bot match
	tamper func(tb *table, log []domain.Event) (bad int)
	check  string
}

func restartCases(t *testing.T, tp *tamperer) []restartCase {
	base := tamperCases(t, tp)
	var cases []restartCase
	for _, c := range base {
		cases = append(cases, restartCase{c.name, false, func(tb *table, log []domain.Event) int { return c.tamper(tb.id, log) }, c.check})
	}
	return append(cases,
		restartCase{"garbage JSON, chain rehashed", false, func(tb *table, log []domain.Event) int {
			k := firstPlays(t, log)
			typ, _ := tp.row(tb.id, k)
			tp.setRow(tb.id, k, typ, `{"seat": nope`)
			tp.rehash(tb.id, k)
			return k
		}, "rules"},
		restartCase{"unknown type, chain rehashed", false, func(tb *table, log []domain.Event) int {
			k := firstPlays(t, log)
			_, data := tp.row(tb.id, k)
			tp.setRow(tb.id, k, "tile.teleported", data)
			tp.rehash(tb.id, k)
			return k
		}, "rules"},
		restartCase{"bad time", false, func(tb *table, log []domain.Event) int {
			k := firstPlays(t, log)
			tp.exec("UPDATE events SET at = 'yesterday' WHERE match_id = ? AND seq = ?", tb.id, k)
			return k
		}, "rules"},
		restartCase{"revealed seed garbled, chain rehashed", false, func(tb *table, log []domain.Event) int {
			k := len(log)
			typ, data := tp.row(tb.id, k)
			tp.setRow(tb.id, k, typ, editJSON(t, data, "seed", "not a seed"))
			tp.rehash(tb.id, k)
			return k
		}, "seed"},
		restartCase{"version raised", false, func(tb *table, log []domain.Event) int {
			tp.exec("UPDATE matches SET version = version + 3 WHERE id = ?", tb.id)
			return 0
		}, "read_model"},
		restartCase{"read model garbled", false, func(tb *table, log []domain.Event) int {
			tp.exec("UPDATE matches SET scores = 'nope', created_at = 'yesterday' WHERE id = ?", tb.id)
			return 0
		}, "read_model"},
		restartCase{"seats deleted", true, func(tb *table, log []domain.Event) int {
			tp.exec("DELETE FROM seats WHERE match_id = ?", tb.id)
			return 0
		}, "seats"},
		restartCase{"seed swapped", true, func(tb *table, log []domain.Event) int {
			tp.exec("UPDATE matches SET seed = ? WHERE id = ?", strings.Repeat("ab", 32), tb.id)
			return 0
		}, "stored_seed"},
		restartCase{"idempotency rows out of range", true, func(tb *table, log []domain.Event) int {
			tp.exec("UPDATE idempotency_keys SET first_seq = 900, last_seq = 999 WHERE match_id = ?", tb.id)
			return 0
		}, "idempotency"},
	)
}

// TestTamperedRecordsThroughRestart changes the file of a stopped server in every way the
// audit knows, then starts a new server on it. Each damaged match's audit answers 200 with
// ok=false, the right first bad seq and the failing check, for a spectator and a seat alike;
// every other endpoint answers 200 or RECORD_CORRUPT naming the match, never INTERNAL; the
// history lists the matches it can read; and an untouched match is unaffected.
func TestTamperedRecordsThroughRestart(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers())
	path := h.Path
	tp := newTamperer(t, path)
	cases := restartCases(t, tp)
	tables := make([]*table, len(cases))
	for i, c := range cases {
		if c.live {
			tb := h.create(seed1, false, "human", "greedy")
			tb.mustMove(0, play("5-5", ""), "Idempotency-Key", "first-move")
			tables[i] = tb
		} else {
			tables[i] = h.botMatch(2, false, i)
		}
	}
	untouched := h.create(seed1, false, "human", "greedy")
	untouched.mustMove(0, play("5-5", ""))
	bad := make([]int, len(cases))
	for i, c := range cases {
		bad[i] = c.tamper(tables[i], tables[i].fullLogRaw(t))
	}

	h2 := restartOn(t, path)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := &table{h: h2, id: tables[i].id, tokens: tables[i].tokens}
			checkBlame(t, tb.audit(-1), bad[i], c.check)
			if c.live && c.name != "seats deleted" {
				checkBlame(t, tb.audit(0), bad[i], c.check)
			}
			corrupt := 0
			for _, p := range []string{"", "/events?limit=1000", "/replay?step=1", "/export", "/export?format=text"} {
				corrupt += expectOKOrCorrupt(t, h2, tb, p)
			}
			if !c.live {
				corrupt += expectOKOrCorrupt(t, h2, tb, "/stream")
			}
			t.Logf("%d endpoints answer RECORD_CORRUPT", corrupt)
			switch c.name {
			case "idempotency rows out of range":
				p := tb.move(0, play("5-5", ""), "Idempotency-Key", "first-move").problem(t, http.StatusInternalServerError, "RECORD_CORRUPT")
				if !strings.Contains(p.Detail, tb.id) {
					t.Fatalf("the problem does not name the match: %+v", p)
				}
			case "seats deleted":
				tb.h.do(http.MethodGet, tb.path(""), nil, auth(tb.tokens[0])...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
			case "garbage JSON, chain rehashed", "unknown type, chain rehashed", "bad time", "seed swapped":
				if corrupt == 0 {
					t.Fatal("a record that cannot be folded is served as if it could")
				}
			}
		})
	}
	var page api.HistoryResponse
	if r := h2.do(http.MethodGet, "/api/v1/matches?limit=100", nil); r.status != http.StatusOK {
		t.Fatalf("history with a garbled row: %d %s", r.status, r.body)
	} else {
		r.decode(t, &page)
	}
	if len(page.Matches) < len(cases) {
		t.Fatalf("history lists %d of %d matches", len(page.Matches), len(cases)+1)
	}
	tb := &table{h: h2, id: untouched.id, tokens: untouched.tokens}
	if rep := tb.audit(-1); !rep.OK {
		t.Fatalf("an untouched match fails its audit: %s", jsonOf(t, rep))
	}
	tb.mustMove(tb.view(-1).Hand.Turn, asMove(tb.legal(tb.view(-1).Hand.Turn).LegalMoves[0]))
}

// expectOKOrCorrupt reads path of tb as a spectator: the answer is a success or RECORD_CORRUPT
// naming the match, never INTERNAL. It returns 1 for RECORD_CORRUPT.
func expectOKOrCorrupt(t *testing.T, h *harness, tb *table, path string) int {
	t.Helper()
	r := h.do(http.MethodGet, tb.path(path), nil)
	if r.status == http.StatusOK || r.status == http.StatusNoContent {
		return 0
	}
	p := r.problem(t, http.StatusInternalServerError, "RECORD_CORRUPT")
	if !strings.Contains(p.Detail, tb.id) {
		t.Fatalf("GET %s: the problem does not name the match: %+v", path, p)
	}
	return 1
}
