package api_test

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
)

// Client addresses of the tests (TEST-NET ranges), and a proxy's.
const (
	clientA = "192.0.2.10"
	clientB = "198.51.100.20"
	proxy   = "10.1.2.3"
)

// hour is a limit that does not refill within a test.
func hour(n int) api.Rate { return api.Rate{N: n, Per: time.Hour} }

// TestLimitPlayersCreated: creating players is limited per client address; another address
// is still served.
func TestLimitPlayersCreated(t *testing.T) {
	h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: api.Limits{Players: hour(3)}})
	for i := range 3 {
		h.newPlayerFrom(clientA, "Ann "+string(rune('A'+i)))
	}
	p := limited(t, h.from(clientA, http.MethodPost, "/api/v1/players", api.CreatePlayerRequest{Name: "Ann D"}))
	if want := "this client address has reached its limit of players created (3 every 1h)"; !strings.HasPrefix(p.Detail, want) {
		t.Fatalf("detail %q, want it to start %q", p.Detail, want)
	}
	h.newPlayerFrom(clientB, "Ann D") // the refused create stored nothing
}

// TestLimitChallenges: challenges are limited per client address and per player: the address
// that used its share is refused whoever it sends, the player that used its share is refused
// from any address, and a fresh player from a fresh address is served. Other creates are not
// counted.
func TestLimitChallenges(t *testing.T) {
	h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: api.Limits{Challenges: hour(2)}})
	ada, bob, cy, dee := h.newPlayer("Ada"), h.newPlayer("Bob"), h.newPlayer("Cy"), h.newPlayer("Dee")
	for range 2 {
		served(t, h.from(clientA, http.MethodPost, "/api/v1/matches", challengeBody(bob.Player.ID), auth(ada.Key)...), http.StatusCreated)
	}
	// Not a challenge: a match of Ada's own against a bot.
	served(t, h.from(clientA, http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Name: "G", Kind: "bot", Bot: "greedy"},
	}}, auth(ada.Key)...), http.StatusCreated)
	limited(t, h.from(clientA, http.MethodPost, "/api/v1/matches", challengeBody(bob.Player.ID), auth(ada.Key)...))
	p := limited(t, h.from(clientA, http.MethodPost, "/api/v1/matches", challengeBody(dee.Player.ID), auth(cy.Key)...))
	if !strings.HasPrefix(p.Detail, "this client address has reached its limit of challenges created") {
		t.Fatalf("Cy from Ada's address: %q", p.Detail)
	}
	p = limited(t, h.from(clientB, http.MethodPost, "/api/v1/matches", challengeBody(dee.Player.ID), auth(ada.Key)...))
	if !strings.HasPrefix(p.Detail, "this player has reached its limit of challenges created (2 every 1h)") {
		t.Fatalf("Ada from another address: %q", p.Detail)
	}
	served(t, h.from(clientB, http.MethodPost, "/api/v1/matches", challengeBody(dee.Player.ID), auth(cy.Key)...), http.StatusCreated)
}

// TestLimitTickets: the stream tickets, the player's and a seat's, share one limit per
// client address and per player.
func TestLimitTickets(t *testing.T) {
	h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: api.Limits{Tickets: hour(2)}})
	ada, bob := h.newPlayer("Ada"), h.newPlayer("Bob")
	tb := h.createMatchWith(ada.Key, api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Name: "Anon"}}})
	served(t, h.from(clientA, http.MethodPost, "/api/v1/players/me/tickets", nil, auth(ada.Key)...), http.StatusCreated)
	served(t, h.from(clientA, http.MethodPost, tb.path("/tickets"), nil, auth(ada.Key)...), http.StatusCreated)
	limited(t, h.from(clientA, http.MethodPost, "/api/v1/players/me/tickets", nil, auth(ada.Key)...))
	limited(t, h.from(clientA, http.MethodPost, tb.path("/tickets"), nil, auth(tb.tokens[1])...)) // the address's share is used
	p := limited(t, h.from(clientB, http.MethodPost, tb.path("/tickets"), nil, auth(ada.Key)...))
	if !strings.HasPrefix(p.Detail, "this player has reached its limit of stream tickets issued") {
		t.Fatalf("Ada's key from another address: %q", p.Detail)
	}
	served(t, h.from(clientB, http.MethodPost, "/api/v1/players/me/tickets", nil, auth(bob.Key)...), http.StatusCreated)
	served(t, h.from(clientB, http.MethodPost, tb.path("/tickets"), nil, auth(tb.tokens[1])...), http.StatusCreated)
}

// TestLimitBotMatches: matches of bots only are limited per client address; a match with a
// human is not counted.
func TestLimitBotMatches(t *testing.T) {
	h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: api.Limits{BotMatches: hour(2)}})
	for range 2 {
		served(t, h.from(clientA, http.MethodPost, "/api/v1/matches", botsBody()), http.StatusCreated)
	}
	p := limited(t, h.from(clientA, http.MethodPost, "/api/v1/matches", botsBody()))
	if !strings.HasPrefix(p.Detail, "this client address has reached its limit of matches of bots only created (2 every 1h)") {
		t.Fatalf("detail %q", p.Detail)
	}
	served(t, h.from(clientA, http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: []api.PlayerRequest{
		{Name: "Me", Kind: "human"}, {Name: "G", Kind: "bot", Bot: "greedy"},
	}}), http.StatusCreated)
	served(t, h.from(clientB, http.MethodPost, "/api/v1/matches", botsBody()), http.StatusCreated)
}

// TestBotQueueBound: with the bot pool's workers held, the pool takes as many matches of bots
// as its bound; one more is 503 UNAVAILABLE with Retry-After, storing nothing, and once the
// pool has played them it takes matches again.
func TestBotQueueBound(t *testing.T) {
	gate := gatedBot{open: make(chan struct{})}
	h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{service: func(c *referee.ServiceConfig) {
		c.BotWorkers, c.BotQueue = 1, 2
		c.Bots["greedy"] = gate
	}})
	for range 2 {
		served(t, h.do(http.MethodPost, "/api/v1/matches", botsBody()), http.StatusCreated)
	}
	full := h.do(http.MethodPost, "/api/v1/matches", botsBody())
	p := full.problem(t, http.StatusServiceUnavailable, "UNAVAILABLE")
	if full.header.Get("Retry-After") != "5" || p.Detail != referee.ErrBotsBusy.Error() {
		t.Fatalf("a full bot pool: Retry-After %q, %s", full.header.Get("Retry-After"), full.body)
	}
	var page api.HistoryResponse
	h.do(http.MethodGet, "/api/v1/matches", nil).decode(t, &page)
	if len(page.Matches) != 2 {
		t.Fatalf("%d matches stored, want the 2 the pool took", len(page.Matches))
	}
	close(gate.open)
	if err := h.svc.WaitBots(t.Context()); err != nil {
		t.Fatal(err)
	}
	served(t, h.do(http.MethodPost, "/api/v1/matches", botsBody()), http.StatusCreated)
}

// TestReviewsOfOneClient is the review case of issue 35: one client fills its own share of
// the review queue and gets 429 with Retry-After, while a request from another client is
// accepted. Asking again for a review in flight or done is no new one and costs nothing.
func TestReviewsOfOneClient(t *testing.T) {
	t.Run("running", func(t *testing.T) {
		g := newGatedEngine()
		h, rev := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{review: func(c *reviews.Config) {
			c.Engine, c.Workers, c.PerClient = g.review, 1, 2
		}})
		a, b, c := h.finishedMatch(seed1), h.finishedMatch(""), h.finishedMatch("")
		served(t, h.from(clientA, http.MethodPost, a.path("/review"), nil), http.StatusAccepted)
		served(t, h.from(clientA, http.MethodPost, b.path("/review"), nil), http.StatusAccepted)
		served(t, h.from(clientA, http.MethodPost, a.path("/review"), nil), http.StatusAccepted) // in flight: no new one
		p := limited(t, h.from(clientA, http.MethodPost, c.path("/review"), nil))
		if p.Detail != reviews.ErrTooManyRunning.Error() {
			t.Fatalf("detail %q", p.Detail)
		}
		served(t, h.from(clientB, http.MethodPost, c.path("/review"), nil), http.StatusAccepted)
		close(g.open)
		waitReviews(t, rev)
		// Done, they count no more: the client may ask for more.
		served(t, h.from(clientA, http.MethodPost, c.path("/review"), nil), http.StatusOK)
	})
	t.Run("per hour", func(t *testing.T) {
		h, rev := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: api.Limits{Reviews: hour(2)}, review: func(*reviews.Config) {}})
		a, b, c := h.finishedMatch(seed1), h.finishedMatch(""), h.finishedMatch("")
		for _, tb := range []*table{a, b} {
			served(t, h.from(clientA, http.MethodPost, tb.path("/review"), nil), http.StatusAccepted)
		}
		waitReviews(t, rev)
		served(t, h.from(clientA, http.MethodPost, a.path("/review"), nil), http.StatusOK) // done: no new one
		p := limited(t, h.from(clientA, http.MethodPost, c.path("/review"), nil))
		if !strings.HasPrefix(p.Detail, "this client address has reached its limit of reviews asked for (2 every 1h)") {
			t.Fatalf("detail %q", p.Detail)
		}
		served(t, h.from(clientB, http.MethodPost, c.path("/review"), nil), http.StatusAccepted)
	})
}

// TestTrustedProxies: without trusted proxies X-Forwarded-For is ignored, so that no client
// picks its own bucket; with them, a request from a trusted proxy counts against the address
// it forwards for, and one from anywhere else against its own address, whatever it claims.
func TestTrustedProxies(t *testing.T) {
	one := api.Limits{Players: hour(1)}
	create := func(h *harness, peer, xff, name string) *reply {
		return h.from(peer, http.MethodPost, "/api/v1/players", api.CreatePlayerRequest{Name: name}, "X-Forwarded-For", xff)
	}
	t.Run("off", func(t *testing.T) {
		h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: one})
		served(t, create(h, proxy, clientA, "P1"), http.StatusCreated)
		limited(t, create(h, proxy, clientB, "P2")) // one peer, one bucket, whatever it forwards for
	})
	t.Run("on", func(t *testing.T) {
		_, trusted, _ := net.ParseCIDR("10.0.0.0/8")
		h, _ := newLimitsHarness(t, sqliteReviewStore(t), limitsSetup{limits: one, trusted: []*net.IPNet{trusted}})
		served(t, create(h, proxy, clientA, "P1"), http.StatusCreated)
		served(t, create(h, proxy, clientB, "P2"), http.StatusCreated)
		limited(t, create(h, proxy, clientA, "P3"))
		// The address nearest the trusted proxies counts: what the client wrote before it is
		// its own claim.
		limited(t, create(h, proxy, "203.0.113.9, "+clientB+", 10.9.9.9", "P4"))
		// An untrusted peer's X-Forwarded-For is its own claim: it counts against the peer.
		served(t, create(h, "203.0.113.50", "203.0.113.51", "P5"), http.StatusCreated)
		limited(t, create(h, "203.0.113.50", "203.0.113.52", "P6"))
	})
}

// TestWaitingChallengeCaps: at most 20 challenges wait for an answer from one player, and 20
// to one player, counted from the store (SQLite and PostgreSQL): the 21st is 429 with
// Retry-After and stores nothing, another player is still served, and an answer makes room.
func TestWaitingChallengeCaps(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			store := eng.open(t).(limitsStore)
			h, _ := newLimitsHarness(t, store, limitsSetup{service: func(c *referee.ServiceConfig) {
				c.MaxChallenges = referee.DefaultMaxChallenges
			}})
			ada, bob := h.newPlayer("Ada"), h.newPlayer("Bob")
			others := make([]api.CreatePlayerResponse, referee.DefaultMaxChallenges+1)
			for i := range others {
				others[i] = h.newPlayer("Player " + strconv.Itoa(i))
			}
			// Ada sends 20, each to another player.
			var first *table
			for _, o := range others[:20] {
				tb, _ := h.challenge(ada.Key, o.Player.ID)
				if first == nil {
					first = tb
				}
			}
			p := limited(t, h.do(http.MethodPost, "/api/v1/matches", challengeBody(others[20].Player.ID), auth(ada.Key)...))
			if want := "player " + ada.Player.ID + " has 20 challenges waiting for an answer, the most one player may send"; !strings.HasPrefix(p.Detail, want) {
				t.Fatalf("Ada's 21st: %q, want %q", p.Detail, want)
			}
			// Twenty players send Bob one each.
			for _, o := range others[:20] {
				h.challenge(o.Key, bob.Player.ID)
			}
			p = limited(t, h.do(http.MethodPost, "/api/v1/matches", challengeBody(bob.Player.ID), auth(others[20].Key)...))
			if want := "player " + bob.Player.ID + " has 20 challenges waiting for its answer, the most one player may be sent"; !strings.HasPrefix(p.Detail, want) {
				t.Fatalf("Bob's 21st: %q, want %q", p.Detail, want)
			}
			var page api.PlayerMatchesResponse
			h.do(http.MethodGet, "/api/v1/players/"+bob.Player.ID+"/matches?status=waiting&limit=100", nil).decode(t, &page)
			if len(page.Matches) != 20 {
				t.Fatalf("Bob has %d waiting matches, want the 20 challenges", len(page.Matches))
			}
			// The 21st player is not over either cap: it challenges Ada.
			h.challenge(others[20].Key, ada.Player.ID)
			// Once one of Ada's is taken, she may send one more.
			served(t, first.joinWith(1, others[0].Key, ""), http.StatusCreated)
			served(t, h.do(http.MethodPost, "/api/v1/matches", challengeBody(others[20].Player.ID), auth(ada.Key)...), http.StatusCreated)
		})
	}
}
