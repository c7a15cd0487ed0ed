package api_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// TestStreamEveryEventOnce: a spectator following a match while its humans play sees every
// event exactly once and in order, across many reconnects resuming with Last-Event-ID or
// ?after=, each event as a spectator may see it; the stream ends after match.ended, and a
// reconnect after it is 204.
func TestStreamEveryEventOnce(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
	srv := h.Server
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
		got = readSome(t, s, conns, got)
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
		s = reconnect(t, url, conns, strconv.Itoa(len(got)))
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

// readSome reads up to 25 events from connection number conns onto got, each the one after
// the last, stopping early at match.ended; a short read leaves the resume something to do.
func readSome(t *testing.T, s *sse, conns int, got []domain.Event) []domain.Event {
	t.Helper()
	for range 25 {
		f, ok := s.nextEvent()
		if !ok {
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
	return got
}

// reconnect opens connection number conns after seq last, taking in turn each way a client
// may resume.
func reconnect(t *testing.T, url string, conns int, last string) *sse {
	t.Helper()
	var s *sse
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
	return s
}

// TestStreamOfFinishedMatch: a finished match streams its whole log, open, and ends; after
// the last event there is nothing to stream (204). Served through the harness's recorder, the
// answers are checked against the contract whole.
func TestStreamOfFinishedMatch(t *testing.T) {
	h := newHarness(t)
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
	h := newHarness(t)
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
