package api_test

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// TestStreamOutlivesServerTimeouts: with a server whose WriteTimeout and ReadTimeout are far
// shorter than the stream, the stream keeps its heartbeats and still delivers a move made
// long after both have passed.
func TestStreamOutlivesServerTimeouts(t *testing.T) {
	const timeout = 200 * time.Millisecond
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.Live(func(s *http.Server) { s.WriteTimeout, s.ReadTimeout = timeout, timeout }))
	srv := h.Server
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
	h := newHarness(t, apitest.WithoutPlayers()) // the default 15 s heartbeat: only the shutdown can end it
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
