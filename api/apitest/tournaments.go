package apitest

import (
	"context"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/tournaments"
)

// wireTournaments gives the server the tournament service when the harness has players, and
// runs its driver when Tournaments asked for it, stopped with the harness.
func (h *Harness) wireTournaments(c *config, ac *api.Config) {
	if h.Players == nil {
		return
	}
	tc := tournaments.Config{Store: h.Store.(tournaments.Store), Matches: h.Service, Players: h.Players}
	if c.tours != nil {
		c.tours(&tc)
	}
	h.Tournaments = tournaments.New(tc)
	ac.Tournaments = h.Tournaments
	if c.drive {
		drive, stop := context.WithCancel(context.Background())
		driven := make(chan struct{})
		go func() { defer close(driven); h.Tournaments.Run(drive, 20*time.Millisecond) }()
		h.onStop(func() { stop(); <-driven })
	}
}
