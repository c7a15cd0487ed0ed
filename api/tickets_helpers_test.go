package api_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
)

// skewClock is time.Now moved on by what a test adds: the players' clock, so that a ticket
// can be made to expire without waiting for it.
type skewClock struct{ by atomic.Int64 }

func (c *skewClock) now() time.Time           { return time.Now().Add(time.Duration(c.by.Load())) }
func (c *skewClock) add(d time.Duration)      { c.by.Add(int64(d)) }
func (c *skewClock) config() func() time.Time { return c.now }

// liveServer is the real router with players over store, served by a real HTTP server with a
// short heartbeat, its players' clock skewable, its log (debug and up) in logs when set.
type liveServer struct {
	*harness
	srv   *httptest.Server
	clock *skewClock
}

func newLiveServer(t *testing.T, store playerStore, logs *syncBuffer, setup func(*api.Config)) *liveServer {
	t.Helper()
	clock := &skewClock{}
	people := players.NewService(players.Config{Store: store, Now: clock.config()})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(7), Players: people})
	cfg := api.Config{Service: svc, Players: people, Ready: store, StreamHeartbeat: 50 * time.Millisecond}
	if logs != nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if setup != nil {
		setup(&cfg)
	}
	e := api.New(cfg)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &liveServer{harness: &harness{t: t, e: e, svc: svc}, srv: srv, clock: clock}
}

// playerTicket asks for a ticket to the stream of the player whose key is key.
func (h *harness) playerTicket(key string) api.TicketResponse {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/v1/players/me/tickets", nil, auth(key)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("player ticket: %d %s", r.status, r.body)
	}
	var out api.TicketResponse
	r.decode(h.t, &out)
	return out
}

// seatTicket asks for a ticket to match id's stream with a seat's token or its player's key.
func (h *harness) seatTicket(id, cred string) api.SeatTicketResponse {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/v1/matches/"+id+"/tickets", nil, auth(cred)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("seat ticket: %d %s", r.status, r.body)
	}
	var out api.SeatTicketResponse
	r.decode(h.t, &out)
	return out
}
