package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// readers are the viewers every read is made as: seat 0, seat 1 and a spectator.
var readers = []int{0, 1, -1}

// sweep reads a live match through every endpoint as each reader and has an oracle judge
// every answer.
type sweep struct {
	t       *testing.T
	tb      *table
	streams map[int]*sse
	after   map[int]int // events already judged, per reader: a live log's old events do not change
	keys    []keyed     // seat 0's moves sent with an Idempotency-Key, for late retries
	reads   int
}

type keyed struct {
	key  string
	move api.MoveRequest
}

// newSweep opens a stream for each reader on srv: seat 0's token in Authorization, seat 1's in
// ?token= (as EventSource sends it), and none for the spectator.
func newSweep(t *testing.T, tb *table, srv *httptest.Server) *sweep {
	sw := &sweep{t: t, tb: tb, streams: map[int]*sse{}, after: map[int]int{}}
	sw.streams[0], _ = openStream(t, srv.URL+tb.path("/stream"), auth(tb.tokens[0])...)
	sw.streams[1], _ = openStream(t, srv.URL+tb.path("/stream?token="+tb.tokens[1]))
	sw.streams[-1], _ = openStream(t, srv.URL+tb.path("/stream"))
	return sw
}

// get reads path as reader and fails unless the answer has status want.
func (sw *sweep) get(reader int, path string, want int, hdr ...string) *reply {
	sw.t.Helper()
	if reader >= 0 {
		hdr = append(hdr, auth(sw.tb.tokens[reader])...)
	}
	r := sw.tb.h.do(http.MethodGet, path, nil, hdr...)
	if r.status != want {
		sw.t.Fatalf("GET %s as %d: %d, want %d: %s", path, reader, r.status, want, r.body)
	}
	sw.reads++
	return r
}

// cheap reads, as every reader, the state, the new events and the legal moves, and returns
// each reader's ETag.
func (sw *sweep) cheap(o *oracle) (tags map[int]string) {
	sw.t.Helper()
	tags = map[int]string{}
	for _, who := range readers {
		r := sw.get(who, sw.tb.path(""), http.StatusOK)
		o.judgeJSON(who, "state", r.body)
		tags[who] = r.header.Get("ETag")
		if vary := r.header.Get("Vary"); !strings.Contains(vary, "Authorization") {
			sw.t.Fatalf("state as %d: Vary %q", who, vary)
		}
		r = sw.get(who, sw.tb.path(fmt.Sprintf("/events?after=%d", sw.after[who])), http.StatusOK)
		o.judgeJSON(who, "events", r.body)
		sw.after[who] = len(o.handAt)
		if who >= 0 {
			o.judgeJSON(who, "legal-moves", sw.get(who, sw.tb.path("/legal-moves"), http.StatusOK).body)
		}
	}
	return tags
}

// etags checks that an ETag answers 304 only to the viewer it was given to: a cache holding
// one viewer's copy must never serve it to another.
func (sw *sweep) etags(o *oracle, tags map[int]string) {
	sw.t.Helper()
	for _, who := range readers {
		for _, other := range readers {
			if other != who {
				o.judgeJSON(who, "state with "+tags[other], sw.get(who, sw.tb.path(""), http.StatusOK, "If-None-Match", tags[other]).body)
			} else if r := sw.get(who, sw.tb.path(""), http.StatusNotModified, "If-None-Match", tags[who]); len(r.body) != 0 {
				sw.t.Fatalf("304 with a body: %s", r.body)
			}
		}
	}
}

// full checks the ETags and reads, as every reader, the records (replays, audit, both
// exports), the history, the metrics and the streams up to version, and makes moves that must
// be refused.
func (sw *sweep) full(o *oracle, version int, tags map[int]string) {
	sw.t.Helper()
	sw.etags(o, tags)
	steps := []int{1, 2, version}
	for seq := version; seq > 2 && len(steps) < 5; seq-- {
		if e := o.log[seq-1]; e.Type == domain.TypeTileDrawn {
			steps = append(steps, seq) // the last draws: each reader's own and the other's
		}
	}
	for _, who := range readers {
		for _, step := range steps {
			o.judgeJSON(who, fmt.Sprintf("replay %d", step), sw.get(who, sw.tb.path(fmt.Sprintf("/replay?step=%d", step)), http.StatusOK).body)
		}
		o.judgeJSON(who, "audit", sw.get(who, sw.tb.path("/audit"), http.StatusOK).body)
		o.judgeJSON(who, "export", sw.get(who, sw.tb.path("/export?format=json"), http.StatusOK).body)
		o.judgeText(who, "text export", sw.get(who, sw.tb.path("/export?format=text"), http.StatusOK).body)
		for _, q := range []string{"", "?player=p1", "?status=in_progress&limit=1"} {
			o.judgeJSON(who, "history"+q, sw.get(who, "/api/v1/matches"+q, http.StatusOK).body)
		}
		sw.streamTo(o, who, version)
		for _, k := range sw.keys[max(0, len(sw.keys)-2):] {
			if who == 0 { // a late retry answers the first answer again, as seat 0 may see it now
				o.judgeJSON(0, "late retry", sw.mustMove(0, k.move, "Idempotency-Key", k.key).body)
			}
		}
	}
	metrics := sw.get(-1, "/metrics", http.StatusOK).body
	o.names(-1, "metrics", string(metrics), nil)
	if strings.Contains(string(metrics), sw.tb.id) {
		sw.t.Fatalf("a match id is a metrics label")
	}
	sw.refusals(o, version)
}

// streamTo reads reader's stream up to version and judges every frame.
func (sw *sweep) streamTo(o *oracle, who, version int) {
	sw.t.Helper()
	s := sw.streams[who]
	for seen := 0; seen < version; {
		f, ok := s.nextEvent()
		if !ok {
			sw.t.Fatalf("reader %d's stream of a live match ended", who)
		}
		o.judgeEvent(who, "stream", []byte(f.data))
		seen = decodeFrame(sw.t, f).Seq
	}
}

// mustMove makes a move (or retries one) that must be answered 200.
func (sw *sweep) mustMove(seat int, m api.MoveRequest, hdr ...string) *reply {
	sw.t.Helper()
	r := sw.tb.move(seat, m, hdr...)
	if r.status != http.StatusOK {
		sw.t.Fatalf("move %+v by seat %d: %d %s", m, seat, r.status, r.body)
	}
	sw.reads++
	return r
}

// refusals makes moves the referee must refuse, each by the seat that would know what its
// refusal says, and checks that none changed the match.
func (sw *sweep) refusals(o *oracle, version int) {
	sw.t.Helper()
	var v api.MatchView
	sw.get(-1, sw.tb.path(""), http.StatusOK).decode(sw.t, &v)
	mover, waiter := v.Hand.Turn, 1-v.Hand.Turn
	hands := map[int][]string{}
	for _, s := range []int{mover, waiter} {
		var mine api.MatchView
		sw.get(s, sw.tb.path(""), http.StatusOK).decode(sw.t, &mine)
		hands[s] = mine.You.Tiles
	}
	legal := map[string]bool{}
	var actions []string
	for _, m := range v.LegalMoves {
		legal[m.Tile] = true
	}
	lm := sw.tb.legal(mover).LegalMoves
	for _, m := range lm {
		legal[m.Tile] = true
		actions = append(actions, m.Action)
	}
	refuse := func(seat int, m api.MoveRequest, status int, code string, hdr ...string) {
		sw.t.Helper()
		var sent []domain.Tile
		if m.Tile != nil {
			sent = append(sent, domain.MustTile(*m.Tile))
		}
		var r *reply
		if seat < 0 {
			r = sw.tb.h.do(http.MethodPost, sw.tb.path("/moves"), m, hdr...)
		} else {
			r = sw.tb.move(seat, m, hdr...)
		}
		r.problem(sw.t, status, code)
		o.judgeJSON(seat, "refused "+code, r.body, sent...)
		sw.reads++
	}
	for _, tile := range hands[waiter][:min(3, len(hands[waiter]))] {
		refuse(mover, play(tile, ""), 422, "TILE_NOT_IN_HAND") // the other seat's tile
	}
	for _, tile := range hands[mover] {
		if !legal[tile] && len(v.Hand.Line) > 0 {
			refuse(mover, play(tile, ""), 422, "TILE_DOES_NOT_FIT")
			break
		}
	}
	switch {
	case slices.Contains(actions, "play"):
		refuse(mover, api.MoveRequest{Action: "draw"}, 422, "MUST_PLAY")
	case slices.Contains(actions, "draw"):
		refuse(mover, api.MoveRequest{Action: "pass"}, 422, "MUST_DRAW")
	default:
		refuse(mover, api.MoveRequest{Action: "draw"}, 422, "MUST_PASS")
	}
	refuse(waiter, play(hands[waiter][0], ""), 409, "NOT_YOUR_TURN")
	refuse(mover, asMove(lm[0]), 409, "VERSION_CONFLICT", "If-Match", "1")
	refuse(-1, asMove(lm[0]), 401, "UNAUTHORIZED")
	refuse(-1, asMove(lm[0]), 401, "UNAUTHORIZED", "Authorization", "Bearer "+sw.tb.tokens[mover]+"x")
	if now := sw.tb.view(-1).Version; now != version {
		sw.t.Fatalf("refused moves changed the match: version %d, was %d", now, version)
	}
}

// keyedMove makes seat 0's move with an Idempotency-Key, retries it, and has seat 1 try the
// same key: the retry is the first answer again, and seat 1 gets the refusal a fresh key gets,
// not seat 0's view nor a sign that seat 0 used the key.
func (sw *sweep) keyedMove(m api.MoveRequest, turn int) api.MoveResponse {
	sw.t.Helper()
	key := fmt.Sprintf("turn-%d", turn)
	first := sw.mustMove(0, m, "Idempotency-Key", key)
	again := sw.mustMove(0, m, "Idempotency-Key", key)
	if string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
		sw.t.Fatalf("retry of %s: %s, first %s", key, again.body, first.body)
	}
	sw.keys = append(sw.keys, keyed{key: key, move: m})
	var res api.MoveResponse
	first.decode(sw.t, &res)
	if res.Match.Status != "in_progress" {
		return res // finished: everything is open
	}
	o := newOracle(sw.t, sw.tb)
	o.judgeJSON(0, "move", first.body)
	// Keys are per seat (docs/api-matches.md, "Idempotency"): seat 1's request with seat 0's key is a fresh one,
	// refused exactly as the same request with a key nobody used. After seat 0's pass the
	// boneyard is empty, so seat 1's probe draws, which is never legal then.
	probe := m
	if m.Action == "pass" {
		probe = api.MoveRequest{Action: "draw"}
	}
	fresh := sw.tb.move(1, probe, "Idempotency-Key", key+"-fresh")
	var want api.Problem
	fresh.decode(sw.t, &want)
	r := sw.tb.move(1, probe, "Idempotency-Key", key)
	if got := r.problem(sw.t, fresh.status, want.Code); got.Code == "IDEMPOTENCY_KEY_REUSED" || got.Detail != want.Detail {
		sw.t.Fatalf("seat 1 with seat 0's key: %s; with a fresh key: %s", r.body, fresh.body)
	}
	o.judgeJSON(1, "seat 0's key", r.body)
	return res
}
