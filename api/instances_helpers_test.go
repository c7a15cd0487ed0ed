package api_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// cluster is two server instances on one PostgreSQL database, as two processes behind a load
// balancer would be: each has its own pool, service, match cache and live streams, and shares
// nothing with the other but the database.
type cluster struct {
	t     testing.TB
	inst  [2]*harness
	srv   [2]*httptest.Server
	store [2]*postgres.Store
}

// newCluster starts the two instances on a fresh database. With follow, each hears the other's
// appends through LISTEN/NOTIFY, as serve wires it, and newCluster returns once both listen;
// without, an instance learns of the other's moves only when its own append meets them.
func newCluster(t testing.TB, follow bool) *cluster {
	t.Helper()
	url := pgtest.URL(t)
	c := &cluster{t: t}
	for i := range c.inst {
		h := newHarness(t, apitest.PostgresAt(url), apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
		store := h.Store.(*postgres.Store)
		if follow {
			followStore(t, store, h.svc)
		}
		c.inst[i], c.srv[i], c.store[i] = h, h.Server, store
	}
	return c
}

// followStore runs svc.Follow(store) as serve does until t ends, and returns once the listener
// listens (its first appended("", 0)), so no test move can precede it.
func followStore(t testing.TB, store *postgres.Store, svc *referee.MatchService) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		done <- store.Listen(ctx, func(id string, v int) {
			svc.Appended(id, v)
			once.Do(func() { close(listening) })
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("listener: %v", err)
		}
	})
	select {
	case <-listening:
	case err := <-done:
		t.Fatalf("listener ended before listening: %v", err)
	}
}

// on is the same match as tb, reached through another instance.
func (tb *table) on(h *harness) *table {
	cp := *tb
	cp.h = h
	return &cp
}

// storedLog is the match's whole stored log, unredacted, and checks that it is a sound chain.
func (c *cluster) storedLog(id string) []domain.Event {
	c.t.Helper()
	events, err := c.store[0].Events(context.Background(), id, 0, 0)
	if err != nil {
		c.t.Fatal(err)
	}
	if rep, err := c.store[1].VerifyChain(context.Background(), id); err != nil || !rep.OK || rep.Events != len(events) {
		c.t.Fatalf("chain of %s: %+v %v", id, rep, err)
	}
	return events
}

// auditsClean checks that both instances audit the match clean over the whole stored log.
func (c *cluster) auditsClean(tb *table) {
	c.t.Helper()
	n := len(c.storedLog(tb.id))
	for i, h := range c.inst {
		if rep := tb.on(h).audit(-1); !rep.OK || rep.Events != n {
			c.t.Fatalf("instance %d audits %s: ok %v over %d events, want ok over %d: %+v", i, tb.id, rep.OK, rep.Events, n, rep.Checks)
		}
	}
}
