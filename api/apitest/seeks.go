package apitest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/matchmaking"
)

// Matcher runs Play now's matcher (docs/matchmaking.md) for as long as the harness lives, on
// the pairing rule rule, looking at the pool every every (0: seeks.DefaultEvery) and reading
// ratings from the store; fn, if not nil, changes its config further. Without it a harness
// still serves the seek routes, but nothing pairs.
func Matcher(rule matchmaking.Rule, every time.Duration, fn func(*seeks.Config)) Option {
	return func(c *config) { c.matcher, c.rule, c.every, c.seeks = true, rule, every, fn }
}

// wireSeeks gives the server the seeks' service when the harness has players and its store
// keeps seeks, and starts the matcher when Matcher asked for it.
func (h *Harness) wireSeeks(t testing.TB, c *config, ac *api.Config) {
	h.StopMatcher = func() {}
	store, ok := h.Store.(seeks.Store)
	if !ok || h.Players == nil {
		return
	}
	sc := seeks.Config{Store: store, Matches: h.Service, Keys: h.Players}
	if c.matcher {
		sc.Rule, sc.Every = c.rule, c.every
		if st, ok := h.Store.(seeks.Standings); ok {
			sc.Standings = st
		}
		if c.seeks != nil {
			c.seeks(&sc)
		}
	}
	h.Seeks = seeks.New(sc)
	ac.Seeks = h.Seeks
	if !c.matcher {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.Seeks.Run(ctx) }()
	var once sync.Once
	h.StopMatcher = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(h.StopMatcher)
}
