package api_test

import (
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestPlayerStreamTellsOfConsent: the player's stream, on SQLite and on PostgreSQL, tells a
// challenged player and its challenger of a decline (declined, then cancelled) and of a
// withdrawal (cancelled), and a rematch offer to the player it waits for (rematch), then its
// decline.
func TestPlayerStreamTellsOfConsent(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			ls := newHarness(t, apitest.WithStore(eng.open(t)), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
			h := ls
			ada, bob := h.newPlayer("Ada S"), h.newPlayer("Bob S")
			as, _ := openPlayerStream(t, ls.Server.URL, ada.Key, "")
			defer as.close()
			bs, _ := openPlayerStream(t, ls.Server.URL, bob.Key, "")
			defer bs.close()

			// Bob challenges Ada, who declines.
			tb, _ := h.challenge(bob.Key, ada.Player.ID)
			as.expect("challenge", tb.id)
			tb.post("/seats/1/decline", ada.Key).okView(t)
			for _, s := range []*playerSSE{as, bs} {
				if e := s.expect("declined", tb.id); e.BySeat == nil || *e.BySeat != 1 {
					t.Fatalf("declined %+v", e)
				}
				if e := s.expect("cancelled", tb.id); e.Status != "cancelled" || e.Reason != "declined" || *e.BySeat != 1 {
					t.Fatalf("cancelled %+v", e)
				}
			}

			// Bob challenges Ada again and withdraws.
			wd, _ := h.challenge(bob.Key, ada.Player.ID)
			as.expect("challenge", wd.id)
			wd.post("/cancel", bob.Key).okView(t)
			if e := as.expect("cancelled", wd.id); e.Reason != "withdrawn" || *e.BySeat != 0 {
				t.Fatalf("cancelled %+v", e)
			}

			// A match of theirs ends; Ada's rematch is an offer Bob hears of, and declines.
			target := 5
			m := h.createMatchWith(ada.Key, api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Player: bob.Player.ID}}})
			m.tokens[1] = m.joinWith(1, bob.Key, "").tokenOf(t)
			m.playOut(nil)
			r := h.do(http.MethodPost, m.path("/rematch"), nil, auth(ada.Key)...)
			var offer api.RematchResponse
			r.decode(t, &offer)
			if e := bs.expect("rematch", m.id); e.NextMatchID != offer.Match.ID || e.Seat != 1 {
				t.Fatalf("Bob hears of the offer as %+v", e)
			}
			(&table{h: h, id: offer.Match.ID}).post("/seats/1/decline", bob.Key).okView(t)
			if e := as.expect("cancelled", offer.Match.ID); e.Reason != "declined" {
				t.Fatalf("Ada hears of the declined offer as %+v", e)
			}
		})
	}
}
