package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// capServer is a real HTTP server whose streams are capped at max in all and perClient per
// client address.
func capServer(t *testing.T, max, perClient int) (*harness, *httptest.Server) {
	t.Helper()
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.ServerConfig(func(c *api.Config) {
		c.MaxStreams, c.MaxStreamsPerClient = max, perClient
	}), apitest.Live(nil))
	return h, h.Server
}

// refused checks a refused stream: its status, code and Retry-After.
func refused(t *testing.T, r *reply, status int, code string) {
	t.Helper()
	r.problem(t, status, code)
	if r.header.Get("Retry-After") == "" {
		t.Fatalf("%s without Retry-After", code)
	}
}

// TestStreamsBeyondTheGlobalCapAreRefused: with room for 3 streams, the 4th and 5th are refused
// 503 UNAVAILABLE with Retry-After while the server goes on answering /healthz and moves;
// once a stream closes, a new one is taken.
func TestStreamsBeyondTheGlobalCapAreRefused(t *testing.T) {
	h, srv := capServer(t, 3, 100)
	tb := h.create(seed1, false, "human", "human")
	url := srv.URL + tb.path("/stream")
	var open []*sse
	for range 3 {
		s, r := openStream(t, url)
		if r != nil {
			t.Fatalf("stream within the cap: %d %s", r.status, r.body)
		}
		open = append(open, s)
	}
	for range 2 {
		_, r := openStream(t, url)
		if r == nil {
			t.Fatal("a stream beyond the cap was opened")
		}
		refused(t, r, http.StatusServiceUnavailable, "UNAVAILABLE")
	}
	if r := h.do(http.MethodGet, "/healthz", nil); r.status != http.StatusOK {
		t.Fatalf("healthz with the streams full: %d", r.status)
	}
	tb.mustMove(0, play("5-5", ""))
	for _, s := range open {
		if f, ok := s.nextEvent(); !ok || f.id != "1" {
			t.Fatalf("an open stream: %+v %v", f, ok)
		}
	}
	open[0].close()
	for {
		// The server counts the stream out once its handler sees the hang-up.
		s, r := openStream(t, url)
		if r == nil {
			s.close()
			break
		}
		refused(t, r, http.StatusServiceUnavailable, "UNAVAILABLE")
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStreamsBeyondTheClientCapAreRefused: one client address may hold 2 streams; its 3rd is
// refused 429 RATE_LIMITED with Retry-After.
func TestStreamsBeyondTheClientCapAreRefused(t *testing.T) {
	h, srv := capServer(t, 100, 2)
	tb := h.create(seed1, false, "human", "human")
	url := srv.URL + tb.path("/stream")
	for range 2 {
		if _, r := openStream(t, url); r != nil {
			t.Fatalf("stream within the cap: %d %s", r.status, r.body)
		}
	}
	_, r := openStream(t, url)
	if r == nil {
		t.Fatal("a third stream from one client was opened")
	}
	refused(t, r, http.StatusTooManyRequests, "RATE_LIMITED")
}

// TestStreamBeyondTheEndEndsWithTheMatch: a stream asked to start after a seq the live match
// has not reached sends nothing, and ends when the match does.
func TestStreamBeyondTheEndEndsWithTheMatch(t *testing.T) {
	h, srv := capServer(t, 0, 0)
	tb := h.create(seed1, false, "human", "greedy")
	s, r := openStream(t, srv.URL+tb.path("/stream?after=100000"))
	if r != nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
	tb.playOut(nil)
	for beats := 0; ; beats++ {
		if beats > 400 {
			t.Fatal("the stream goes on sending heartbeats after match.ended")
		}
		f, ok := s.next()
		if !ok {
			return
		}
		if f.comment == "" {
			t.Fatalf("the stream sent an event before its start: %+v", f)
		}
	}
}
