package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// matchRoutes are the router's routes about one match: every path under /api/v1/matches/:id.
// They come from the router itself, so a route added later is probed as soon as it exists.
func (r *sealedRound) matchRoutes() [][2]string {
	var out [][2]string
	for _, rt := range r.e.Routes() {
		if rt.Path == "/api/v1/matches/:id" || strings.HasPrefix(rt.Path, "/api/v1/matches/:id/") {
			out = append(out, [2]string{rt.Method, rt.Path})
		}
	}
	if len(out) < 18 {
		r.t.Fatalf("only %d routes about a match: %v", len(out), out)
	}
	return out
}

// TestSealedMatchAnswersEveryOutsiderAlike: while a duplicate round runs, every request about
// one of its matches by anyone not seated in it, on every route of the router that names a
// match, in every query shape (limit and after, a step in range or not, stray and malformed
// parameters), with conditional headers, HEAD, and any body, is the same 409 MATCH_SEALED:
// byte for byte the same answer, apart from its request id and the match's id, for a live
// table and an ended one, whoever asks. A status, code or word that differed would tell one
// table something of another that holds the same cards.
func TestSealedMatchAnswersEveryOutsiderAlike(t *testing.T) {
	r := newSealedRound(t)
	routes := r.matchRoutes()
	// first is the first answer to each method and path, the id written out; every other must
	// be the same.
	first := map[string]string{}
	firstFrom := map[string]string{}
	n := 0
	for _, tb := range []sealedTable{r.live, r.ended} {
		for _, who := range r.outsiders(tb) {
			for _, rt := range routes {
				for _, req := range probes(rt[0], rt[1], tb.match) {
					req.header = req.header.Clone()
					if req.header == nil {
						req.header = http.Header{}
					}
					for _, a := range who.authorization {
						req.header.Add("Authorization", a)
					}
					a := r.send(req)
					n++
					what := fmt.Sprintf("%s %s (%s, %s table, %v)", req.method, req.path, who.name, tableName(r, tb), req.header)
					if a.code != http.StatusConflict {
						t.Errorf("%s: %d %s, want 409 MATCH_SEALED", what, a.code, a.body)
						continue
					}
					if req.method != http.MethodHead && problemCode(a.body) != "MATCH_SEALED" {
						t.Errorf("%s: %s, want MATCH_SEALED", what, a.body)
						continue
					}
					key := req.method + " " + strings.ReplaceAll(strings.SplitN(req.path, "?", 2)[0], tb.match, "{id}")
					got := normalised(a, tb.match)
					if prev, ok := first[key]; !ok {
						first[key], firstFrom[key] = got, what
					} else if got != prev {
						t.Errorf("%s answers\n%s\nbut %s answered\n%s", what, got, firstFrom[key], prev)
					}
				}
			}
		}
	}
	t.Logf("%d requests about a sealed match by outsiders, %d routes", n, len(routes))
}

func tableName(r *sealedRound, tb sealedTable) string {
	if tb.match == r.live.match {
		return "live"
	}
	return "ended"
}

// TestSealedMatchOpensToItsSeats: the seal refuses outsiders only. A seat of a sealed match
// reads it as its seat (state, events of every shape, replay, legal moves, export, audit,
// stream ticket), and once the round ends everyone reads every table.
func TestSealedMatchOpensToItsSeats(t *testing.T) {
	r := newSealedRound(t)
	for _, tb := range []sealedTable{r.live, r.ended} {
		m := "/api/v1/matches/" + tb.match
		for seat, key := range tb.keys {
			for _, path := range []string{m, m + "/events", m + "/events?limit=1", m + "/events?after=0&limit=1", m + "/replay?step=1",
				m + "/legal-moves", m + "/export", m + "/export?format=text", m + "/audit"} {
				code, b := r.call("GET", path, key, nil)
				if code != http.StatusOK {
					t.Errorf("seat %d of the %s table GET %s: %d %s", seat, tableName(r, tb), path, code, b)
				}
			}
			code, b := r.call("GET", m+"/replay?step=99999", key, nil)
			if code != http.StatusBadRequest {
				t.Errorf("seat %d of the %s table GET replay?step=99999: %d %s", seat, tableName(r, tb), code, b)
			}
			r.must(http.StatusCreated, "POST", m+"/tickets", key, nil, nil)
			// Its review waits for the round, whatever the match's state.
			for _, method := range []string{"POST", "GET"} {
				code, b := r.call(method, m+"/review", key, nil)
				if code != http.StatusConflict || problemCode(b) != "MATCH_SEALED" {
					t.Errorf("seat %d of the %s table %s review: %d %s", seat, tableName(r, tb), method, code, b)
				}
			}
		}
	}
	r.endRound()
	for _, tb := range []sealedTable{r.live, r.ended} {
		m := "/api/v1/matches/" + tb.match
		for _, path := range []string{m, m + "/events?limit=1", m + "/replay?step=99999", m + "/export", m + "/audit"} {
			code, b := r.call("GET", path, "", nil)
			if want := map[bool]int{true: http.StatusBadRequest, false: http.StatusOK}[strings.Contains(path, "99999")]; code != want {
				t.Errorf("after the round, GET %s: %d %s, want %d", path, code, b, want)
			}
		}
	}
}

// TestSealedRematchRefused: a seat of an ended sealed match cannot ask for its rematch while
// the round runs: the new match would show in the public lists who played at that table.
func TestSealedRematchRefused(t *testing.T) {
	r := newSealedRound(t)
	m := "/api/v1/matches/" + r.ended.match
	for seat, key := range r.ended.keys {
		code, b := r.call("POST", m+"/rematch", key, nil)
		if code != http.StatusConflict || problemCode(b) != "MATCH_SEALED" {
			t.Fatalf("seat %d's rematch of its sealed match: %d %s", seat, code, b)
		}
	}
	list := r.must(http.StatusOK, "GET", "/api/v1/matches", "", nil, nil)
	for _, id := range r.ended.players {
		if contains(list, id) {
			t.Fatalf("GET /matches names a player of the sealed table: %s", list)
		}
	}
}
