package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/storetest"
)

// heard is one call of the appended func that Listen was given.
type heard struct {
	id      string
	version int
}

// listen runs s.Listen until t ends and returns what it hears, after the first ("", 0) that
// says it is listening.
func listen(t *testing.T, s *postgres.Store) <-chan heard {
	t.Helper()
	lctx, cancel := context.WithCancel(ctx)
	out := make(chan heard, 256)
	done := make(chan error, 1)
	go func() { done <- s.Listen(lctx, func(id string, v int) { out <- heard{id, v} }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Listen ended with %v, want context.Canceled", err)
		}
	})
	if h := next(t, out); h != (heard{}) {
		t.Fatalf("first call %+v, want the (\"\", 0) that starts listening", h)
	}
	return out
}

func next(t *testing.T, ch <-chan heard) heard {
	t.Helper()
	select {
	case h := <-ch:
		return h
	case <-time.After(time.Minute):
		t.Fatal("nothing heard within a minute")
		return heard{}
	}
}

// TestListenHearsOtherStores: appends through another store (another instance's pool) are
// announced to the listener, in commit order, each with the version it reached; a failed
// append announces nothing.
func TestListenHearsOtherStores(t *testing.T) {
	a, url := openStore(t, postgres.Options{})
	b := openAt(t, url, postgres.Options{})
	heardA := listen(t, a)

	f := storetest.NewFixture(t, "n1", storetest.Base, 0)
	if err := f.Create(ctx, b); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if err := b.Append(ctx, f.Next(t)); err != nil {
			t.Fatal(err)
		}
		if h := next(t, heardA); h.id != "n1" || h.version != f.Match.Version() {
			t.Fatalf("heard %+v, want n1 at %d", h, f.Match.Version())
		}
	}
	stale := f.Next(t)
	stale.Expected--
	if err := b.Append(ctx, stale); err == nil {
		t.Fatal("a stale append succeeded")
	}
	// A good append after the failed one is the next thing heard: the failure sent nothing.
	good := stale
	good.Expected++
	if err := a.Append(ctx, good); err != nil {
		t.Fatal(err)
	}
	if h := next(t, heardA); h.id != "n1" || h.version != f.Match.Version() {
		t.Fatalf("heard %+v after a failed append, want n1 at %d", h, f.Match.Version())
	}
}

// TestListenReconnects: when the listener's connection is killed, Listen connects again and
// says ("", 0), since announcements may have been lost meanwhile, then goes on hearing.
func TestListenReconnects(t *testing.T) {
	s, url := openStore(t, postgres.Options{})
	heardS := listen(t, s)
	conn := connect(t, url)
	var killed int
	err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %'`).Scan(&killed)
	if err != nil || killed != 1 {
		t.Fatalf("killed %d listeners, err %v", killed, err)
	}
	if h := next(t, heardS); h != (heard{}) {
		t.Fatalf("after the kill heard %+v, want (\"\", 0)", h)
	}
	f := storetest.NewFixture(t, "n2", storetest.Base, 0)
	if err := f.Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, f.Next(t)); err != nil {
		t.Fatal(err)
	}
	if h := next(t, heardS); h.id != "n2" || h.version != f.Match.Version() {
		t.Fatalf("heard %+v after reconnecting, want n2 at %d", h, f.Match.Version())
	}
}

// TestPingSaysWhenNotListening: while a started listener has lost its connection, Ping fails
// (readiness then says the instance should get no traffic); once it listens again, Ping holds.
func TestPingSaysWhenNotListening(t *testing.T) {
	s, url := openStore(t, postgres.Options{})
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("ping with no listener: %v", err)
	}
	heardS := listen(t, s)
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("ping while listening: %v", err)
	}
	conn := connect(t, url)
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %'`); err != nil {
		t.Fatal(err)
	}
	// The listener waits a second before it connects again: Ping must fail within it.
	deadline := time.Now().Add(time.Minute)
	var err error
	for err = s.Ping(ctx); err == nil; err = s.Ping(ctx) {
		if time.Now().After(deadline) {
			t.Fatal("ping held for a minute after the listener's connection was killed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(err.Error(), "not listening") {
		t.Fatalf("ping while reconnecting: %v, want it to say it is not listening", err)
	}
	if h := next(t, heardS); h != (heard{}) {
		t.Fatalf("after the kill heard %+v, want (\"\", 0)", h)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("ping after reconnecting: %v", err)
	}
}
