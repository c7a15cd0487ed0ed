package api_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestRotationEndsSeatTokens: rotating a player's key ends the seat tokens of every seat it
// holds, live, waiting and finished, and the streams opened with them or with tickets bought
// with them; the new key stands for each of those seats, and another seat's token goes on.
func TestRotationEndsSeatTokens(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			ls := newHarness(t, apitest.WithStore(eng.open(t)), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
			h := ls
			ada, bob := h.newPlayer("Ada T"), h.newPlayer("Bob T")
			live := h.createMatchWith(ada.Key, api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Name: "Anon"}}})
			waiting, _ := h.challenge(ada.Key, bob.Player.ID)
			target := 5
			done := h.createMatchWith(ada.Key, api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Name: "Greedy", Kind: "bot", Bot: "greedy"}}})
			done.playOut(nil)
			ticket := h.seatTicket(live.id, live.tokens[0])
			byToken, r := openStream(t, ls.Server.URL+live.path("/stream"), auth(live.tokens[0])...)
			if r != nil {
				t.Fatalf("a stream with Ada's token: %d %s", r.status, r.body)
			}
			byTicket, r := openStream(t, ls.Server.URL+live.path("/stream?ticket="+url.QueryEscape(ticket.Ticket)))
			if r != nil {
				t.Fatalf("a stream with a ticket of Ada's token: %d %s", r.status, r.body)
			}
			spare := h.seatTicket(live.id, live.tokens[0])
			for _, tb := range []*table{live, waiting, done} {
				if v := tb.view(0); v.You == nil || v.You.Seat != 0 {
					t.Fatalf("before the rotation, Ada's token reads %s as %+v", tb.id, v.You)
				}
			}

			newKey := rotate(t, h, ada.Key)
			for _, tb := range []*table{live, waiting, done} {
				h.do(http.MethodGet, tb.path(""), nil, auth(tb.tokens[0])...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
				var v api.MatchView
				if r := h.do(http.MethodGet, tb.path(""), nil, auth(newKey)...); r.status != http.StatusOK {
					t.Fatalf("the new key on %s: %d %s", tb.id, r.status, r.body)
				} else if r.decode(t, &v); v.You == nil || v.You.Seat != 0 {
					t.Fatalf("the new key reads %s as %+v", tb.id, v.You)
				}
			}
			h.do(http.MethodPost, live.path("/tickets"), nil, auth(live.tokens[0])...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
			untilEnd(t, byToken)
			untilEnd(t, byTicket)
			refusedStream(t, ls.Server.URL+live.path("/stream?ticket="+url.QueryEscape(spare.Ticket)), http.StatusUnauthorized, "UNAUTHORIZED")
			// The anonymous seat's token is no token of Ada's.
			if v := live.view(1); v.You == nil || v.You.Seat != 1 {
				t.Fatalf("the other seat's token reads %+v", v.You)
			}
			// Ada plays on with the new key.
			live.tokens[0] = newKey
			if v := live.view(0); v.Status != "in_progress" {
				t.Fatalf("the live match is %s", v.Status)
			}
		})
	}
	t.Run("instances", func(t *testing.T) {
		url := pgtest.URL(t)
		var inst [2]*harness
		for i := range inst {
			inst[i] = newHarness(t, apitest.PostgresAt(url))
			followStore(t, inst[i].Store.(*postgres.Store), inst[i].svc)
		}
		a, b := inst[0], inst[1]
		ada := a.newPlayer("Ada I")
		tb := a.createMatchWith(ada.Key, api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Name: "Anon"}}})
		onB := tb.on(b)
		if v := onB.view(0); v.You == nil || v.You.Seat != 0 { // B caches the match, and its seats
			t.Fatalf("B reads Ada's token as %+v", v.You)
		}
		rotate(t, a, ada.Key)
		// B hears of the rotation from the store: its copy's seats are dropped.
		deadline := time.Now().Add(wait)
		for {
			r := b.do(http.MethodGet, tb.path(""), nil, auth(tb.tokens[0])...)
			if r.status == http.StatusUnauthorized {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("instance B still takes the revoked token: %d %s", r.status, r.body)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// rotate rotates key through h and returns the new key.
func rotate(t *testing.T, h *harness, key string) string {
	t.Helper()
	r := h.do(http.MethodPost, "/api/v1/players/me/key", nil, auth(key)...)
	if r.status != http.StatusOK {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	var out api.PlayerKeyResponse
	r.decode(t, &out)
	return out.Key
}
