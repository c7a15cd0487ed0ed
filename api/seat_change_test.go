package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// A seat that changes hands (docs/api-matches.md, "When a seat changes hands"): Bob takes seat 1 and
// opens his streams, leaves, and Carol takes the seat, which deals the first hand. Bob's
// streams end, and none of them ever carries a tile of Carol's hand, wherever each request
// lands: moves through one instance, streams through another.

// seatChange creates a three-seat match with two open seats through h, seats Bob in seat 1
// and returns the table and Bob's token.
func seatChange(t *testing.T, h *harness) (*table, string) {
	t.Helper()
	tb := h.createMatch(api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{{Name: "host", Kind: "human"}, {Kind: "open"}, {Kind: "open"}}})
	bob := tb.mustJoin(1, "Bob", "").Token
	return tb, bob
}

// handOver has Bob leave seat 1, Carol join it and Dan take seat 2 through tb's instance, and
// returns Carol's tiles: Dan's join deals the first hand.
func handOver(t *testing.T, tb *table, bob string) []string {
	t.Helper()
	if r := tb.h.do(http.MethodPost, tb.path("/seats/1/leave"), nil, auth(bob)...); r.status != http.StatusOK {
		t.Fatalf("Bob leaves: %d %s", r.status, r.body)
	}
	tb.mustJoin(1, "Carol", "")
	if dan := tb.mustJoin(2, "Dan", ""); dan.Match.Status != "in_progress" {
		t.Fatalf("the last join did not deal: %+v", dan.Match)
	}
	carol := tb.view(1)
	if carol.You == nil || len(carol.You.Tiles) != 5 {
		t.Fatalf("Carol's view: %+v", carol)
	}
	return carol.You.Tiles
}

// followedUntilEnd reads s to its end and fails if any frame shows seat 1's hand: a
// hand.started with seat 1's tiles, a tile.drawn of seat 1 with its tile, a view with "you",
// or any of Carol's tiles in a hand.
func followedUntilEnd(t *testing.T, s *sse, carol []string) (types []string) {
	t.Helper()
	for {
		f, ok := s.nextEvent()
		if !ok {
			return types
		}
		var e struct {
			Type  string          `json:"type"`
			Data  json.RawMessage `json:"data"`
			Match *api.MatchView  `json:"match"`
		}
		if err := json.Unmarshal([]byte(f.data), &e); err != nil {
			t.Fatalf("frame %q: %v", f.data, err)
		}
		types = append(types, e.Type)
		if e.Match != nil && e.Match.You != nil {
			t.Fatalf("Bob's stream carried a seat's view after he left: %s", f.data)
		}
		var d struct {
			Hands [][]string `json:"hands"`
			Seat  *int       `json:"seat"`
			Tile  *string    `json:"tile"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Hands) > 1 && d.Hands[1] != nil {
			t.Fatalf("Bob's stream carried seat 1's hand %v (Carol's is %v)", d.Hands[1], carol)
		}
		if e.Type == "tile.drawn" && d.Seat != nil && *d.Seat == 1 && d.Tile != nil {
			t.Fatalf("Bob's stream carried seat 1's draw: %s", f.data)
		}
		if e.Type == "hand.started" && strings.Contains(f.data, `"`+carol[0]+`"`) {
			t.Fatalf("Bob's stream carried Carol's tile %s: %s", carol[0], f.data)
		}
	}
}

// checkSeatChange runs the scenario with moves through mover and Bob's streams through the
// server at streams.
func checkSeatChange(t *testing.T, mover *harness, streams string) {
	tb, bob := seatChange(t, mover)
	url := streams + tb.path("/stream")
	plain, _ := openStream(t, url, auth(bob)...)
	viewed, _ := openStream(t, url+"?view=1", auth(bob)...)
	byQuery, _ := openStream(t, url+"?token="+bob)
	// The opening events (match.created, seat.joined) are sent before the seat changes hands.
	for _, s := range []*sse{plain, viewed, byQuery} {
		for range 2 {
			if _, ok := s.nextEvent(); !ok {
				t.Fatal("a stream ended before the seat changed hands")
			}
		}
	}
	carol := handOver(t, tb, bob)
	for name, s := range map[string]*sse{"plain": plain, "view=1": viewed, "?token=": byQuery} {
		types := followedUntilEnd(t, s, carol)
		for _, typ := range types {
			if typ != "seat.left" {
				t.Fatalf("%s stream sent %v after Bob left: only his own seat.left may follow", name, types)
			}
		}
	}
	// Coming back with the old token, or reading with it, is refused.
	if _, r := openStream(t, url, auth(bob)...); r == nil || r.status != http.StatusUnauthorized {
		t.Fatalf("a stream with Bob's old token: %+v", r)
	}
	if r := tb.h.do(http.MethodGet, tb.path("/events"), nil, auth(bob)...); r.status != http.StatusUnauthorized {
		t.Fatalf("events with Bob's old token: %d %s", r.status, r.body)
	}
}

// TestStreamEndsWhenItsSeatChangesHands on SQLite: one instance, a real HTTP server.
func TestStreamEndsWhenItsSeatChangesHands(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
	srv := h.Server
	checkSeatChange(t, h, srv.URL)
}

// TestStreamEndsWhenItsSeatChangesHandsOnAnotherInstance: the leave and the join go through
// instance A, Bob's streams through instance B, which hears of them by NOTIFY.
func TestStreamEndsWhenItsSeatChangesHandsOnAnotherInstance(t *testing.T) {
	c := newCluster(t, true)
	checkSeatChange(t, c.inst[0], c.srv[1].URL)
}
