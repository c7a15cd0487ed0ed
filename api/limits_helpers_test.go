package api_test

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/bot"
)

// limitsStore is what a server with players and reviews needs of its store.
type limitsStore interface {
	playerStore
	reviews.Store
}

// limitsSetup is a server's limits for a test: the API's, the referee's (service), and the
// reviewer's (review: nil serves no reviews).
type limitsSetup struct {
	limits  api.Limits
	trusted []*net.IPNet
	service func(*referee.ServiceConfig)
	review  func(*reviews.Config)
}

// newLimitsHarness is the real router over store with the limits of setup.
func newLimitsHarness(t testing.TB, store limitsStore, setup limitsSetup) (*harness, *reviews.Service) {
	t.Helper()
	opts := []apitest.Option{apitest.WithStore(store), apitest.Limits(setup.limits),
		apitest.ServerConfig(func(c *api.Config) { c.TrustedProxies = setup.trusted })}
	if setup.service != nil {
		opts = append(opts, apitest.ServiceConfig(setup.service))
	}
	if setup.review != nil {
		opts = append(opts, apitest.Reviews(setup.review))
	}
	h := newHarness(t, opts...)
	return h, h.Reviews
}

// from sends a request as do does, from the client at addr (an IP address).
func (h *harness) from(addr, method, path string, body any, hdr ...string) *reply {
	h.t.Helper()
	req := h.request(method, path, body, hdr...)
	req.RemoteAddr = net.JoinHostPort(addr, "40000")
	return h.serve(req)
}

// limited checks that r is 429 RATE_LIMITED with a Retry-After of a second or more, and
// returns its problem.
func limited(t testing.TB, r *reply) api.Problem {
	t.Helper()
	p := r.problem(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra < 1 {
		t.Fatalf("429 with Retry-After %q: %s", r.header.Get("Retry-After"), r.body)
	}
	return p
}

// served checks that r has status want.
func served(t testing.TB, r *reply, want int) *reply {
	t.Helper()
	if r.status != want {
		t.Fatalf("got %d, want %d: %s", r.status, want, r.body)
	}
	return r
}

// newPlayerFrom creates a player named name from the client at addr.
func (h *harness) newPlayerFrom(addr, name string) api.CreatePlayerResponse {
	h.t.Helper()
	var out api.CreatePlayerResponse
	served(h.t, h.from(addr, http.MethodPost, "/api/v1/players", api.CreatePlayerRequest{Name: name}), http.StatusCreated).decode(h.t, &out)
	return out
}

// challengeBody is a create of seat 0 for the key's player and seat 1 reserved for player.
func challengeBody(player string) api.CreateMatchRequest {
	return api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Player: player}}}
}

// botsBody is a create of a match of two bots.
func botsBody() api.CreateMatchRequest {
	return api.CreateMatchRequest{Players: []api.PlayerRequest{{Name: "G", Kind: "bot", Bot: "greedy"}, {Name: "R", Kind: "bot", Bot: "random"}}}
}

// gatedBot is a strategy that plays greedy once open is closed: it holds the bot pool's
// workers, so that matches of bots stay in the pool.
type gatedBot struct {
	open chan struct{}
}

func (g gatedBot) Choose(ctx context.Context, view domain.SeatView) (domain.Move, error) {
	select {
	case <-g.open:
	case <-ctx.Done():
		return domain.Move{}, ctx.Err()
	}
	return bot.NewGreedy().Choose(ctx, view)
}
