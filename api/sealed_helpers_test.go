package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// sealedRound is a duplicate round still being played (docs/tournaments.md, "Sealed
// matches"): four players and two bots at three tables, one table ended by a resignation, one
// live with a human to move, the round held open by it.
type sealedRound struct {
	*cup
	t          *testing.T
	tournament string
	ended      sealedTable
	live       sealedTable
	// rest are the other tables with a human seat, live too.
	rest []sealedTable
	// keys are every entered player's key by player id; org is the organiser's (not entered),
	// outsider a player of no table.
	keys          map[string]string
	org, outsider string
}

// sealedTable is one table of the round: its match and the keys of its human seats, by seat.
type sealedTable struct {
	match   string
	players map[int]string // seat -> player id, humans only
	keys    map[int]string // seat -> key, humans only
}

// someKey is the key of one human seat of the table.
func (tb sealedTable) someKey() string {
	for seat := range 4 {
		if k, ok := tb.keys[seat]; ok {
			return k
		}
	}
	return ""
}

// newSealedRound starts the round and ends one table of it.
func newSealedRound(t *testing.T) *sealedRound {
	t.Helper()
	c := newCup(t)
	r := &sealedRound{cup: c, t: t, keys: map[string]string{}}
	_, r.org = c.player("Org")
	_, r.outsider = c.player("Eve")
	for _, name := range []string{"Ann", "Ben", "Cat", "Dan"} {
		id, key := c.player(name)
		r.keys[id] = key
	}
	r.tournament = c.createTournament(r.org, api.CreateTournamentRequest{Name: "Sealed", Format: "2p", System: "swiss", Rounds: 1,
		Duplicate: true, Target: 50, TurnSeconds: 600}, "random", "greedy")
	for _, k := range r.keys {
		c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+r.tournament+"/entries", k, nil, nil)
	}
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+r.tournament+"/start", r.org, nil, nil)
	v := c.waitFor(r.tournament, "dealt", func(v api.TournamentView) bool {
		if len(v.Rounds) != 1 {
			return false
		}
		for _, tb := range v.Rounds[0].Tables {
			if tb.Match == "" {
				return false
			}
		}
		return true
	})
	var humans []sealedTable
	for _, tb := range v.Rounds[0].Tables {
		st := sealedTable{match: tb.Match, players: map[int]string{}, keys: map[int]string{}}
		for seat, s := range tb.Seats {
			if k, ok := r.keys[s.Player]; ok {
				st.players[seat], st.keys[seat] = s.Player, k
			}
		}
		if len(st.keys) > 0 {
			humans = append(humans, st)
		}
	}
	if len(humans) < 2 {
		t.Fatalf("fewer than two tables with a human: %+v", v.Rounds[0].Tables)
	}
	r.ended, r.live, r.rest = humans[0], humans[1], humans[2:]
	c.must(http.StatusOK, "POST", "/api/v1/matches/"+r.ended.match+"/resign", r.ended.someKey(), nil, nil)
	if st := r.status(r.ended, r.ended.someKey()); st != "finished" {
		t.Fatalf("the resigned table is %s", st)
	}
	if st := r.status(r.live, r.live.someKey()); st != "in_progress" {
		t.Fatalf("the live table is %s", st)
	}
	return r
}

// status is the table's match status as the seat of key reads it.
func (r *sealedRound) status(tb sealedTable, key string) string {
	var view struct {
		Status string `json:"status"`
	}
	r.must(http.StatusOK, "GET", "/api/v1/matches/"+tb.match, key, nil, &view)
	return view.Status
}

// toMove is the seat of the live table whose turn it is, a human's: the bots play until one is.
func (r *sealedRound) toMove() (seat int, player, key string) {
	r.t.Helper()
	for seat, key := range r.live.keys {
		var view struct {
			Turn *int `json:"turn"`
		}
		r.must(http.StatusOK, "GET", "/api/v1/matches/"+r.live.match, key, nil, &view)
		if view.Turn != nil && *view.Turn == seat {
			return seat, r.live.players[seat], key
		}
	}
	r.t.Fatalf("no human of the live table is to move")
	return 0, "", ""
}

// endRound resigns the live tables, which ends the round and lifts the seal.
func (r *sealedRound) endRound() {
	r.t.Helper()
	for _, tb := range append([]sealedTable{r.live}, r.rest...) {
		if r.status(tb, tb.someKey()) == "in_progress" {
			r.must(http.StatusOK, "POST", "/api/v1/matches/"+tb.match+"/resign", tb.someKey(), nil, nil)
		}
	}
	r.waitFor(r.tournament, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
}

// answer is one response, as the client sees it.
type answer struct {
	code   int
	header http.Header
	body   []byte
}

// request is one request to the router, with whatever headers the probe sets.
type request struct {
	method, path string
	header       http.Header
	body         string
}

// send serves req. A stream that was (wrongly) opened is cut once its first bytes are in.
func (r *sealedRound) send(req request) answer {
	r.t.Helper()
	var body io.Reader
	if req.body != "" {
		body = strings.NewReader(req.body)
	}
	hr := httptest.NewRequest(req.method, req.path, body)
	for k, vs := range req.header {
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	// A safety net only: a stream that opens answers 200 at once, which fails the test; this
	// ends it so the test can say so.
	ctx, cancel := context.WithTimeout(hr.Context(), 5*time.Second)
	defer cancel()
	rec := httptest.NewRecorder()
	r.e.ServeHTTP(rec, hr.WithContext(ctx))
	return answer{code: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// requestID matches the request id of a problem, the one part that differs between two
// answers that are otherwise the same.
var requestID = regexp.MustCompile(`"request_id":"[^"]*"`)

// normalised is a's body and headers with the request id and the match id written out, so
// that the answers about two tables, or by two callers, compare byte for byte.
func normalised(a answer, match string) string {
	body := requestID.ReplaceAllString(string(a.body), `"request_id":""`)
	body = strings.ReplaceAll(body, match, "{id}")
	var hs []string
	for k, vs := range a.header {
		if k == "X-Request-Id" {
			continue
		}
		hs = append(hs, k+": "+strings.Join(vs, ", "))
	}
	slices.Sort(hs)
	return strings.Join(hs, "\n") + "\n\n" + body
}

// credential is one way of (not) being someone, as an Authorization header.
type credential struct {
	name          string
	authorization []string
}

// outsiders are every credential that holds no seat of table tb: none, garbage of each
// shape, a key of another table's seat, the organiser's, a player of no table.
func (r *sealedRound) outsiders(tb sealedTable) []credential {
	other := r.live
	if tb.match == r.live.match {
		other = r.ended
	}
	bearer := func(k string) []string { return []string{"Bearer " + k} }
	return []credential{
		{"none", nil},
		{"garbage token", bearer("not-a-token-of-anything")},
		{"garbage key", bearer("afk_" + strings.Repeat("A", 43))},
		{"not bearer", []string{"Basic QW5uOnNlY3JldA=="}},
		{"two headers", []string{"Bearer x", "Bearer y"}},
		{"empty bearer", []string{"Bearer "}},
		{"another table's seat", bearer(other.someKey())},
		{"organiser", bearer(r.org)},
		{"outsider", bearer(r.outsider)},
	}
}

// probes are the requests made of each route about match id: every query shape the route
// reads, in range and out, stray parameters, conditional headers, and HEAD of a read.
func probes(method, route, id string) []request {
	path := strings.ReplaceAll(route, ":id", id)
	var out []request
	add := func(method, path string, header http.Header, body string) {
		out = append(out, request{method: method, path: path, header: header, body: body})
	}
	paths := []string{strings.ReplaceAll(path, ":seat", "1")}
	if strings.Contains(path, ":seat") {
		paths = append(paths, strings.ReplaceAll(path, ":seat", "9"))
	}
	queries := []string{"", "?bogus=1", "?%zz"}
	switch {
	case strings.HasSuffix(route, "/events"):
		queries = append(queries, "?limit=1", "?after=0&limit=1", "?after=1", "?after=1&limit=1", "?after=99999", "?limit=0", "?limit=x", "?after=-1")
	case strings.HasSuffix(route, "/replay"):
		queries = append(queries, "?step=1", "?step=2", "?step=99999", "?step=0", "?step=-1", "?step=x")
	case strings.HasSuffix(route, "/export"):
		queries = append(queries, "?format=json", "?format=text", "?format=pdf")
	case strings.HasSuffix(route, "/stream"):
		queries = append(queries, "?after=0", "?view=1", "?token=garbage", "?ticket=garbage", "?ticket=")
	}
	json := http.Header{"Content-Type": {"application/json"}}
	for _, p := range paths {
		for _, q := range queries {
			add(method, p+q, nil, "")
		}
		add(method, p, http.Header{"If-None-Match": {"*"}}, "")
		add(method, p, http.Header{"If-None-Match": {`"1-s"`}}, "")
		add(method, p, http.Header{"If-Match": {"1"}}, "")
		add(method, p, http.Header{"Last-Event-ID": {"1"}}, "")
		if method == http.MethodGet {
			add(http.MethodHead, p, nil, "")
			add(http.MethodHead, p+"?step=99999&limit=1", nil, "")
		}
		if method == http.MethodPost {
			add(method, p, json, "{}")
			add(method, p, json, `{"action":"pass"}`)
			add(method, p, json, `{"action":"play","tile":"5-5"}`)
			add(method, p, json, `not json`)
			add(method, p, http.Header{"Content-Type": {"text/plain"}}, "x")
		}
	}
	return out
}

// problemCode is the code of a problem body, or "".
func problemCode(b []byte) string {
	var p struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(b, &p)
	return p.Code
}
