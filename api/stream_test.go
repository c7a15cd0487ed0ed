package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// The contract declares the stream's 200 as text/event-stream; the validator reads it as text.
func init() {
	openapi3filter.RegisterBodyDecoder("text/event-stream", openapi3filter.PlainBodyDecoder)
}

// wait bounds every wait for something the server must do: generous, since the tests run
// with -race on small shared machines. Nothing is asserted about how long anything takes.
const wait = 60 * time.Second

// frame is one server-sent event, or a comment.
type frame struct {
	id, event, data, comment string
}

// sse is a stream read by a real HTTP client.
type sse struct {
	t      *testing.T
	req    *http.Request
	res    *http.Response
	cancel context.CancelFunc
	frames chan frame
	mu     sync.Mutex
	raw    bytes.Buffer // every byte read, for the contract check
}

// openStream GETs url with header pairs hdr and, on a 200, reads frames in the background.
// Any other answer is returned whole, contract-checked.
func openStream(t *testing.T, url string, hdr ...string) (*sse, *reply) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		defer cancel()
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		r := &reply{status: res.StatusCode, header: res.Header, body: body}
		if err := checkContract(req, r); err != nil {
			t.Fatalf("GET %s -> %d breaks the contract: %v\n%s", url, r.status, err, body)
		}
		return nil, r
	}
	if ct, cc := res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"); ct != "text/event-stream" || cc != "no-cache" {
		t.Fatalf("stream headers: Content-Type %q, Cache-Control %q", ct, cc)
	}
	s := &sse{t: t, req: req, res: res, cancel: cancel, frames: make(chan frame, 64)}
	go s.read()
	t.Cleanup(s.close)
	return s, nil
}

// read parses the stream into frames until it ends.
func (s *sse) read() {
	defer close(s.frames)
	rd := bufio.NewReader(s.res.Body)
	var f frame
	for {
		line, err := rd.ReadString('\n')
		s.mu.Lock()
		s.raw.WriteString(line)
		s.mu.Unlock()
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch {
		case line == "":
			if f != (frame{}) {
				s.frames <- f
			}
			f = frame{}
		case name == "":
			f.comment = value
		case name == "id":
			f.id = value
		case name == "event":
			f.event = value
		case name == "data":
			f.data = value
		}
	}
}

// next returns the next frame, or ok=false when the stream has ended.
func (s *sse) next() (frame, bool) {
	s.t.Helper()
	select {
	case f, ok := <-s.frames:
		return f, ok
	case <-time.After(wait):
		s.t.Fatalf("no frame within %v", wait)
		return frame{}, false
	}
}

// nextEvent returns the next event, skipping comments, or ok=false when the stream ended.
func (s *sse) nextEvent() (frame, bool) {
	s.t.Helper()
	for {
		f, ok := s.next()
		if !ok || f.comment == "" {
			return f, ok
		}
	}
}

// ended checks that the stream ends now, with nothing more sent.
func (s *sse) ended() {
	s.t.Helper()
	if f, ok := s.next(); ok {
		s.t.Fatalf("the stream goes on after match.ended: %+v", f)
	}
}

// close hangs up and checks what was read against the contract.
func (s *sse) close() {
	s.cancel()
	s.res.Body.Close()
	for range s.frames {
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := checkContract(s.req, &reply{status: s.res.StatusCode, header: s.res.Header, body: s.raw.Bytes()}); err != nil {
		s.t.Errorf("the stream breaks the contract: %v", err)
	}
}

// decodeFrame checks an event frame's fields against its data and decodes the data.
func decodeFrame(t *testing.T, f frame) domain.Event {
	t.Helper()
	var e domain.Event
	if err := json.Unmarshal([]byte(f.data), &e); err != nil {
		t.Fatalf("frame %+v: %v", f, err)
	}
	if f.id != strconv.Itoa(e.Seq) || f.event != string(e.Type) {
		t.Fatalf("frame id %q, event %q, but its data is seq %d, type %s", f.id, f.event, e.Seq, e.Type)
	}
	return e
}

// mover plays a live match's human seats through the router from another goroutine.
type mover struct {
	t    *testing.T
	tb   *table
	turn int
}

// play makes up to n moves (n < 0: to the end) and says whether the match is still live.
func (m *mover) play(n int) bool {
	for ; n != 0; n-- {
		r := m.tb.h.do(http.MethodGet, m.tb.path(""), nil)
		var v api.MatchView
		if err := json.Unmarshal(r.body, &v); err != nil || r.status != http.StatusOK {
			m.t.Errorf("view: %d %s", r.status, r.body)
			return false
		}
		if v.Status == "finished" {
			return false
		}
		seat := v.Hand.Turn
		r = m.tb.h.do(http.MethodGet, m.tb.path("/legal-moves"), nil, auth(m.tb.tokens[seat])...)
		var lm api.LegalMovesResponse
		if err := json.Unmarshal(r.body, &lm); err != nil || r.status != http.StatusOK || len(lm.LegalMoves) == 0 {
			m.t.Errorf("legal moves of seat %d: %d %s", seat, r.status, r.body)
			return false
		}
		m.turn++
		r = m.tb.move(seat, asMove(pick(lm.LegalMoves, m.turn)))
		if r.status != http.StatusOK {
			m.t.Errorf("move: %d %s", r.status, r.body)
			return false
		}
	}
	return true
}

// streamServer is a real HTTP server over the harness's router, with a short heartbeat.
func streamServer(t *testing.T, setup func(*http.Server)) (*harness, *httptest.Server) {
	t.Helper()
	h, _ := newFileHarness(t, func(c *api.Config) { c.StreamHeartbeat = 50 * time.Millisecond })
	srv := httptest.NewUnstartedServer(h.e)
	if setup != nil {
		setup(srv.Config)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return h, srv
}

// TestStreamEveryEventOnce: a spectator following a match while its humans play sees every
// event exactly once and in order, across many reconnects resuming with Last-Event-ID or
// ?after=, each event as a spectator may see it; the stream ends after match.ended, and a
// reconnect after it is 204.
func TestStreamEveryEventOnce(t *testing.T) {
	h, srv := streamServer(t, nil)
	tb := h.create(seed1, false, "human", "greedy", "human")
	url := srv.URL + tb.path("/stream")

	first, _ := openStream(t, url)
	disconnected, gap := make(chan struct{}), make(chan struct{})
	moved := make(chan struct{})
	go func() {
		defer close(moved)
		m := &mover{t: t, tb: tb}
		live := m.play(15)
		<-disconnected
		if live {
			live = m.play(10) // while nobody follows: the resume must fill this gap
		}
		close(gap)
		if live {
			m.play(-1)
		}
	}()

	var got []domain.Event
	s, conns := first, 1
	for {
		var (
			f  frame
			ok bool
		)
		for range 25 {
			if f, ok = s.nextEvent(); !ok {
				t.Fatalf("connection %d ended before match.ended, after seq %d", conns, len(got))
			}
			e := decodeFrame(t, f)
			if e.Seq != len(got)+1 {
				t.Fatalf("connection %d: seq %d after seq %d", conns, e.Seq, len(got))
			}
			got = append(got, e)
			if e.Type == domain.TypeMatchEnded {
				break
			}
		}
		if got[len(got)-1].Type == domain.TypeMatchEnded {
			s.ended()
			break
		}
		s.close()
		if conns == 1 {
			close(disconnected)
			<-gap
		}
		conns++
		last := strconv.Itoa(len(got))
		switch conns % 3 {
		case 0:
			s, _ = openStream(t, url, "Last-Event-ID", last)
		case 1:
			s, _ = openStream(t, url+"?after="+last)
		case 2: // EventSource keeps the URL it started with: Last-Event-ID wins over it
			s, _ = openStream(t, url+"?after=0", "Last-Event-ID", last)
		}
		if s == nil {
			t.Fatalf("reconnect %d after seq %s was not a stream", conns, last)
		}
	}
	<-moved
	full := tb.fullLog()
	if len(got) != len(full) || conns < 3 {
		t.Fatalf("%d events over %d connections, the log has %d", len(got), conns, len(full))
	}
	for i, e := range got {
		// Each event as a spectator saw it when it was read: redacted while the match was
		// live, open once it had ended.
		if js := jsonOf(t, e); js != jsonOf(t, domain.Spectator().Redact(full[i], false)) && js != jsonOf(t, full[i]) {
			t.Fatalf("seq %d streamed as %s, the log has %s", e.Seq, js, jsonOf(t, full[i]))
		}
	}
	if _, r := openStream(t, url, "Last-Event-ID", strconv.Itoa(len(full))); r == nil || r.status != http.StatusNoContent {
		t.Fatalf("a reconnect after match.ended: %+v", r)
	}
}

// TestStreamHidesOtherSeatsTiles: while a seeded match is live, each seat's stream (token in
// Authorization for one, in ?token= for the other) carries its own deal and draws, exactly as
// the seed deals them, and nothing of the other seat's hand or draws, nor the boneyard order.
func TestStreamHidesOtherSeatsTiles(t *testing.T) {
	h, srv := streamServer(t, nil)
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Seed: seed1, Target: 1000, Players: []api.PlayerRequest{
		{Name: "Ada", Kind: "human"}, {Name: "Bo", Kind: "human"},
	}})
	var created api.CreateMatchResponse
	r.decode(t, &created)
	tb := &table{h: h, id: created.Match.ID, tokens: map[int]string{}}
	for _, tk := range created.Tokens {
		tb.tokens[tk.Seat] = tk.Token
	}
	s0, _ := openStream(t, srv.URL+tb.path("/stream"), auth(tb.tokens[0])...)
	s1, _ := openStream(t, srv.URL+tb.path("/stream?token="+tb.tokens[1]))
	streams := []*sse{s0, s1}
	m := &mover{t: t, tb: tb}
	if !m.play(120) {
		t.Fatal("the match ended: raise its target")
	}
	version := tb.view(-1).Version
	seed, err := domain.ParseSeed(seed1)
	if err != nil {
		t.Fatal(err)
	}
	for me, s := range streams {
		other := 1 - me
		var deal domain.Deal
		drawn := 0
		for seq := 1; seq <= version; seq++ {
			f, ok := s.nextEvent()
			if !ok {
				t.Fatalf("seat %d's stream ended at seq %d", me, seq)
			}
			e := decodeFrame(t, f)
			if e.Seq != seq {
				t.Fatalf("seat %d: seq %d, want %d", me, e.Seq, seq)
			}
			switch d := e.Data.(type) {
			case domain.HandStarted:
				deal = domain.DealDeck(domain.Deck(seed, d.Hand, d.Redeals), 2, 7)
				drawn = 0
				if d.Hands[other] != nil || d.Boneyard != nil || d.BoneyardCount != len(deal.Boneyard) ||
					!slices.Equal(sortedTiles(domain.TileNames(d.Hands[me])), sortedTiles(domain.TileNames(deal.Hands[me]))) {
					t.Fatalf("seat %d sees hand.started %s; the seed deals %v", me, f.data, deal)
				}
			case domain.TileDrawn:
				want := deal.Boneyard[drawn]
				drawn++
				switch {
				case d.Seat == me && (d.Tile == nil || *d.Tile != want):
					t.Fatalf("seat %d's own draw streams as %s, the seed gives %s", me, f.data, want)
				case d.Seat == other && d.Tile != nil:
					t.Fatalf("seat %d's stream shows seat %d's draw: %s", me, other, f.data)
				}
			case domain.MatchEnded:
				t.Fatal("the match ended: raise its target")
			}
			if e.Type != domain.TypeTilePlayed && deal.Hands != nil {
				// Only a play shows a tile of the other seat's hand: no other frame names one.
				for _, tile := range deal.Hands[other] {
					if strings.Contains(f.data, `"`+tile.String()+`"`) {
						t.Fatalf("seat %d's stream names %s of seat %d's hand: %s", me, tile, other, f.data)
					}
				}
			}
		}
	}
	// Hidden information survives a reconnect too.
	again, _ := openStream(t, srv.URL+tb.path("/stream?token="+tb.tokens[0]))
	again.nextEvent() // match.created
	if f, _ := again.nextEvent(); !strings.Contains(f.data, `"hands":[[`) || !strings.Contains(f.data, `],null]`) {
		t.Fatalf("seat 0's hand.started on reconnect: %s", f.data)
	}
}

// TestStreamOfFinishedMatch: a finished match streams its whole log, open, and ends; after
// the last event there is nothing to stream (204). Served through the harness's recorder, the
// answers are checked against the contract whole.
func TestStreamOfFinishedMatch(t *testing.T) {
	h := newHarness(t, options{})
	tb := h.botMatch(4, true, 0)
	full := tb.fullLog()
	n := len(full)
	for _, tc := range []struct {
		query string
		hdr   []string
		from  int
	}{
		{"", nil, 1},
		{"?after=5", nil, 6},
		{fmt.Sprintf("?after=%d", n-1), nil, n},
		{"?after=3", []string{"Last-Event-ID", "7"}, 8},
		{"", []string{"Last-Event-ID", " 2 "}, 3},
	} {
		r := h.do(http.MethodGet, tb.path("/stream"+tc.query), nil, tc.hdr...)
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%s %v: %d %s", tc.query, tc.hdr, r.status, r.header)
		}
		var want strings.Builder
		for _, e := range full[tc.from-1:] {
			var ev api.EventsResponse
			tb.fetch(fmt.Sprintf("/events?after=%d&limit=1", e.Seq-1), -1, &ev)
			fmt.Fprintf(&want, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Type, jsonOf(t, ev.Events[0]))
		}
		if string(r.body) != want.String() {
			t.Fatalf("%s %v: streamed\n%s\nwant\n%s", tc.query, tc.hdr, r.body, want.String())
		}
	}
	for _, q := range []string{fmt.Sprintf("?after=%d", n), fmt.Sprintf("?after=%d", n+10)} {
		if r := h.do(http.MethodGet, tb.path("/stream"+q), nil); r.status != http.StatusNoContent || len(r.body) != 0 {
			t.Fatalf("%s: %d %q", q, r.status, r.body)
		}
	}
	if r := h.do(http.MethodGet, tb.path("/stream"), nil, "Last-Event-ID", strconv.Itoa(n)); r.status != http.StatusNoContent {
		t.Fatalf("Last-Event-ID %d: %d", n, r.status)
	}
}

// TestStreamRefusals: a bad token is 401 and a bad resume point 400, before any stream starts.
func TestStreamRefusals(t *testing.T) {
	h := newHarness(t, options{})
	tb := h.create(seed1, false, "human", "human")
	other := h.create("", false, "human", "human")
	for _, tc := range []struct {
		query  string
		hdr    []string
		status int
		code   string
	}{
		{"?token=nope", nil, 401, "UNAUTHORIZED"},
		{"?token=" + other.tokens[0], nil, 401, "UNAUTHORIZED"},
		{"?token=", nil, 401, "UNAUTHORIZED"},
		{"", auth("nope"), 401, "UNAUTHORIZED"},
		{"", []string{"Authorization", "Basic eDp5"}, 401, "UNAUTHORIZED"},
		{"?token=" + tb.tokens[0], auth(tb.tokens[0]), 400, "INVALID_REQUEST"},
		{"?after=-1", nil, 400, "INVALID_REQUEST"},
		{"?after=x", nil, 400, "INVALID_REQUEST"},
		{"?after=1&after=2", nil, 400, "INVALID_REQUEST"},
		{"?since=1", nil, 400, "INVALID_REQUEST"},
		{"", []string{"Last-Event-ID", "x"}, 400, "INVALID_REQUEST"},
		{"", []string{"Last-Event-ID", "-3"}, 400, "INVALID_REQUEST"},
	} {
		t.Run(tc.query+strings.Join(tc.hdr, " "), func(t *testing.T) {
			h.do(http.MethodGet, tb.path("/stream"+tc.query), nil, tc.hdr...).problem(t, tc.status, tc.code)
		})
	}
	h.do(http.MethodGet, "/api/v1/matches/nope/stream", nil).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
}

// TestStreamOutlivesServerTimeouts: with a server whose WriteTimeout and ReadTimeout are far
// shorter than the stream, the stream keeps its heartbeats and still delivers a move made
// long after both have passed.
func TestStreamOutlivesServerTimeouts(t *testing.T) {
	const timeout = 200 * time.Millisecond
	h, srv := streamServer(t, func(s *http.Server) { s.WriteTimeout, s.ReadTimeout = timeout, timeout })
	tb := h.create(seed1, false, "human", "human")
	version := tb.view(-1).Version
	opened := time.Now()
	s, _ := openStream(t, srv.URL+tb.path("/stream"))
	for seq := 1; seq <= version; seq++ {
		if f, ok := s.nextEvent(); !ok || decodeFrame(t, f).Seq != seq {
			t.Fatalf("seq %d: %+v %v", seq, f, ok)
		}
	}
	// Outwait both timeouts several times over, heartbeats arriving all along.
	pings := 0
	for pings < 5 || time.Since(opened) < 10*timeout {
		f, ok := s.next()
		if !ok {
			t.Fatalf("the stream ended after %d heartbeats, %v after it opened", pings, time.Since(opened))
		}
		if f.comment != "ping" {
			t.Fatalf("an idle stream sent %+v", f)
		}
		pings++
	}
	tb.mustMove(0, play("5-5", ""))
	f, ok := s.nextEvent()
	if !ok {
		t.Fatalf("the stream ended %v after it opened, past the server's timeouts", time.Since(opened))
	}
	if e := decodeFrame(t, f); e.Seq != version+1 || e.Type != domain.TypeTilePlayed {
		t.Fatalf("after the move: %+v", e)
	}
}

// TestStreamEndsOnShutdown: a graceful shutdown ends open streams instead of waiting for them,
// so Shutdown returns without its deadline passing.
func TestStreamEndsOnShutdown(t *testing.T) {
	h, _ := newFileHarness(t, nil) // the default 15 s heartbeat: only the shutdown can end it
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h.e}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	tb := h.create(seed1, false, "human", "human")
	streams := make([]*sse, 3)
	for i := range streams {
		streams[i], _ = openStream(t, "http://"+ln.Addr().String()+tb.path("/stream"))
		if _, ok := streams[i].nextEvent(); !ok {
			t.Fatal("no first event")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(ctx) }()
	deadline := time.Now().Add(wait) // heartbeats alone would keep next() answering
	for i, s := range streams {
		for {
			if time.Now().After(deadline) {
				t.Fatalf("stream %d still open %v after Shutdown began", i, wait)
			}
			f, ok := s.next()
			if !ok {
				break
			}
			if f.comment != "" {
				continue
			}
			if e := decodeFrame(t, f); e.Seq > tb.view(-1).Version {
				t.Fatalf("stream %d: %+v", i, e)
			}
		}
	}
	if err := <-shut; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-served; err != http.ErrServerClosed {
		t.Fatalf("Serve: %v", err)
	}
}
