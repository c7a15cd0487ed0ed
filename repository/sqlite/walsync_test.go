package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// syncGate replaces the syncer's fsync: each sync says it began on entered, then waits for
// the gate to open and returns fail.
type syncGate struct {
	entered chan struct{}
	open    chan struct{}
	once    sync.Once
	fail    error
	syncs   atomic.Int32
}

// release opens the gate; calling it again does nothing.
func (g *syncGate) release() { g.once.Do(func() { close(g.open) }) }

// gateSyncs gates s's fsyncs, and opens the gate when the test ends, so that a test that
// fails while a sync waits still closes its store.
func gateSyncs(t *testing.T, s *Store, fail error) *syncGate {
	g := &syncGate{entered: make(chan struct{}, 16), open: make(chan struct{}), fail: fail}
	t.Cleanup(g.release)
	s.ws.mu.Lock()
	s.ws.syncFile = func() error {
		g.syncs.Add(1)
		g.entered <- struct{}{}
		<-g.open
		return g.fail
	}
	s.ws.mu.Unlock()
	return g
}

// quiet fails the test if ch yields within a moment: what must wait for the sync has not.
func quiet[T any](t *testing.T, ch <-chan T, what string) {
	t.Helper()
	select {
	case v := <-ch:
		t.Fatalf("%s before the WAL was synced: %v", what, v)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestAppendAnsweredAfterTheSync: at sync=full the committer's COMMIT does not wait for the
// disk, so the append's caller hears of it only after the syncer's fsync, and a read of the
// match that SQLite already shows the new event waits for that fsync as well; both then see the
// move.
func TestAppendAnsweredAfterTheSync(t *testing.T) {
	s, _ := openTest(t)
	f := created(t, s, "sync-", 1, 0)[0]
	g := gateSyncs(t, s, nil)
	a := f.Next(t)
	appended := make(chan error, 1)
	go func() { appended <- s.Append(context.Background(), a) }()
	<-g.entered // committed: SQLite shows it to readers from now on
	read := make(chan int, 1)
	go func() {
		evs, err := s.Events(context.Background(), f.Record.ID, 0, 0)
		if err != nil {
			t.Error(err)
		}
		read <- len(evs)
	}()
	quiet(t, appended, "the append was answered")
	quiet(t, read, "a read returned")
	g.release()
	if err := <-appended; err != nil {
		t.Fatal(err)
	}
	if got, want := <-read, a.Events[len(a.Events)-1].Seq; got != want {
		t.Errorf("the read saw %d events, want %d", got, want)
	}
	if got, want := int(g.syncs.Load()), 1; got != want {
		t.Errorf("%d fsyncs, want %d", got, want)
	}
}

// TestFailedSyncEndsAppends: when the WAL's fsync fails, the batch's caller hears the store is
// unavailable (never a success), and so do every later append and read, and the readiness
// probe, because what was committed may be lost: the store must be opened again.
func TestFailedSyncEndsAppends(t *testing.T) {
	s, _ := openTest(t)
	fs := created(t, s, "fail-", 2, 0)
	g := gateSyncs(t, s, errors.New("EIO"))
	g.release()
	ctx := context.Background()
	if err := s.Append(ctx, fs[0].Next(t)); !errors.Is(err, domain.ErrStoreUnavailable) {
		t.Fatalf("append whose sync failed: %v, want ErrStoreUnavailable", err)
	}
	if err := s.Append(ctx, fs[1].Next(t)); !errors.Is(err, domain.ErrStoreUnavailable) {
		t.Fatalf("append after a failed sync: %v, want ErrStoreUnavailable", err)
	}
	if n := g.syncs.Load(); n != 1 {
		t.Errorf("%d fsyncs, want 1: a later batch must not trust a sync after a failed one", n)
	}
	if _, err := s.Events(ctx, fs[1].Record.ID, 0, 0); !errors.Is(err, domain.ErrStoreUnavailable) {
		t.Errorf("read after a failed sync: %v, want ErrStoreUnavailable", err)
	}
	if err := s.Ping(ctx); !errors.Is(err, domain.ErrStoreUnavailable) {
		t.Errorf("ping after a failed sync: %v, want ErrStoreUnavailable", err)
	}
}

// TestOnlyFullSyncsItself: at full the committer commits at NORMAL with the syncer behind it
// and gorm's writer stays at FULL; at normal and off there is no syncer and the committer
// commits at the level asked.
func TestOnlyFullSyncsItself(t *testing.T) {
	for mode, want := range map[string]int64{"full": 1, "normal": 1, "off": 0} {
		path := filepath.Join(t.TempDir(), mode+".db")
		s, err := Open(context.Background(), path, Options{Sync: mode})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := s.wc.queryInt("PRAGMA synchronous")
		if err != nil || got != want {
			t.Errorf("sync %s: the committer's synchronous = %d (%v), want %d", mode, got, err, want)
		}
		if (s.ws != nil) != (mode == "full") {
			t.Errorf("sync %s: syncer %v", mode, s.ws != nil)
		}
		s.Close()
	}
}
