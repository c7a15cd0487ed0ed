package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// BenchmarkInstances compares one SQLite server, one PostgreSQL server and two PostgreSQL
// servers sharing a database (following each other, as serve wires them), through the real
// routers without the contract check. Run:
//
//	go test ./api -run '^$' -bench Instances -benchtime 3s
//
// moves: 16 clients, each playing a match of its own: GET legal-moves from the instance that
// made the last move, then POST the move to the next instance in turn, so with two instances
// every move lands on an instance whose copy is one move behind (as round-robin balancing
// does). reads: GET /matches/{id} with a seat token over 16 matches, alternating instances.
func BenchmarkInstances(b *testing.B) {
	setups := []struct {
		name string
		open func(b *testing.B) []*harness
	}{
		{"sqlite-full", func(b *testing.B) []*harness { return []*harness{newHarness(b, apitest.Sync("full"))} }},
		{"postgres-1", func(b *testing.B) []*harness { return newCluster(b, true).inst[:1] }},
		{"postgres-2", func(b *testing.B) []*harness { c := newCluster(b, true); return c.inst[:] }},
	}
	for _, s := range setups {
		b.Run(s.name+"/moves", func(b *testing.B) { benchMoves(b, s.open(b)) })
		b.Run(s.name+"/reads", func(b *testing.B) { benchReads(b, s.open(b)) })
	}
}

// benchClient is one parallel client of benchMoves: its match, the seat to move, and the
// instance that made the last move.
type benchClient struct {
	tb   *table
	turn int
	last int
}

func benchMoves(b *testing.B, inst []*harness) {
	var next atomic.Int64
	b.SetParallelism(8) // with GOMAXPROCS 2: 16 clients
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := &benchClient{}
		c.start(b, inst[0])
		for pb.Next() {
			mover := int(next.Add(1)) % len(inst)
			if !c.move(b, inst, mover) {
				c.start(b, inst[0])
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// start creates the client's next match (about one in a hundred moves ends one).
func (c *benchClient) start(b *testing.B, h *harness) {
	var res api.CreateMatchResponse
	req := httptest.NewRequest(http.MethodPost, "/api/v1/matches", strings.NewReader(`{"players":[{"name":"ann","kind":"human"},{"name":"bob","kind":"human"}]}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.e.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &res) != nil {
		b.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	c.tb = &table{h: h, id: res.Match.ID, tokens: map[int]string{}}
	for _, tk := range res.Tokens {
		c.tb.tokens[tk.Seat] = tk.Token
	}
	c.turn, c.last = res.Match.Hand.Turn, 0
}

// move reads the legal moves from the instance that moved last and posts one to inst[mover];
// it says whether the match goes on.
func (c *benchClient) move(b *testing.B, inst []*harness, mover int) bool {
	var lm api.LegalMovesResponse
	call(b, inst[c.last].e, http.MethodGet, c.tb.path("/legal-moves"), "", c.tb.tokens[c.turn], &lm)
	var res api.MoveResponse
	body := `{"action":"` + lm.LegalMoves[0].Action + `"}`
	if l := lm.LegalMoves[0]; l.Action == "play" {
		body = `{"action":"play","tile":"` + l.Tile + `","end":"` + l.End + `"}`
	}
	call(b, inst[mover].e, http.MethodPost, c.tb.path("/moves"), body, c.tb.tokens[c.turn], &res)
	c.last = mover
	if res.Match.Status == "finished" {
		return false
	}
	c.turn = res.Match.Hand.Turn
	return true
}

func benchReads(b *testing.B, inst []*harness) {
	tables := make([]*table, 16)
	for i := range tables {
		tables[i] = inst[0].create("", false, "human", "human")
	}
	var next atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n := int(next.Add(1))
			tb := tables[n%len(tables)]
			var v api.MatchView
			call(b, inst[n%len(inst)].e, http.MethodGet, tb.path(""), "", tb.tokens[0], &v)
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
}

// call sends one request straight to a router and decodes its 200 answer into out.
func call(b *testing.B, e *echo.Echo, method, path, body, token string, out any) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Errorf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		return
	}
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		b.Error(err)
	}
}
