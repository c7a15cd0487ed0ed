package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// replayView is the match as seat (or a spectator, seat < 0) sees it right after step.
func replayView(t *testing.T, tb *table, seat, step int) string {
	t.Helper()
	var r api.ReplayResponse
	tb.fetch(fmt.Sprintf("/replay?step=%d", step), seat, &r)
	return jsonOf(t, r.Match)
}

// TestStreamWithViewsOfAFinishedMatch: with ?view=1 every event carries the view after it,
// the very view a replay of that step gives.
func TestStreamWithViewsOfAFinishedMatch(t *testing.T) {
	h := newHarness(t)
	tb := h.botMatch(3, false, 1)
	r := h.do(http.MethodGet, tb.path("/stream?view=1&after=3"), nil)
	if r.status != http.StatusOK {
		t.Fatalf("stream: %d %s", r.status, r.body)
	}
	n := 0
	for _, line := range strings.Split(string(r.body), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev api.StreamEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil || ev.Match == nil {
			t.Fatalf("frame without a view: %s (%v)", data, err)
		}
		if got, want := jsonOf(t, ev.Match), replayView(t, tb, -1, ev.Seq); got != want {
			t.Fatalf("seq %d: view\n%s\nreplay gives\n%s", ev.Seq, got, want)
		}
		n++
	}
	if n != len(tb.fullLog())-3 {
		t.Fatalf("%d frames with views, want %d", n, len(tb.fullLog())-3)
	}
	h.do(http.MethodGet, tb.path("/stream?view=yes"), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
}

// TestStreamWithViewsOfALiveMatch: a seat following a live match gets its own view after each
// event, which shows its own tiles and no one else's.
func TestStreamWithViewsOfALiveMatch(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
	srv := h.Server
	tb := h.create(seed1, false, "human", "human")
	(&mover{t: t, tb: tb}).play(6)
	version := tb.view(-1).Version
	s, _ := openStream(t, srv.URL+tb.path("/stream?view=1&token="+tb.tokens[1]))
	for seq := 1; seq <= version; seq++ {
		f, ok := s.nextEvent()
		if !ok {
			t.Fatalf("the stream ended before seq %d", seq)
		}
		var ev api.StreamEvent
		if err := json.Unmarshal([]byte(f.data), &ev); err != nil || ev.Match == nil || ev.Seq != seq {
			t.Fatalf("frame %s: %v", f.data, err)
		}
		if ev.Match.You == nil || ev.Match.You.Seat != 1 || ev.Match.Hand != nil && ev.Match.Hand.Hands != nil {
			t.Fatalf("seq %d: seat 1's view %+v", seq, ev.Match)
		}
		if got, want := jsonOf(t, ev.Match), replayView(t, tb, 1, seq); got != want {
			t.Fatalf("seq %d: view\n%s\nreplay gives\n%s", seq, got, want)
		}
	}
}
