package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// TestHeadBatchStartsAfterEveryCheck: many readers check heads at once through one batch whose
// query answers each id with a clock read when the query starts. Every reader must get a
// version read after it asked, which is what read-your-writes needs of a shared query; the
// checks share queries; an id the query does not return is ErrMatchNotFound.
func TestHeadBatchStartsAfterEveryCheck(t *testing.T) {
	var clock atomic.Int64
	var queries, ids atomic.Int64
	b := &headBatch{query: func(ctx context.Context, _ *sql.DB, g *headGroup) error {
		started := int(clock.Add(1))
		queries.Add(1)
		ids.Add(int64(len(g.ids)))
		time.Sleep(200 * time.Microsecond) // a round trip
		for i, id := range g.ids {
			if id != "missing" {
				g.versions[i] = started
			}
		}
		return nil
	}}
	var wg sync.WaitGroup
	const readers, each = 32, 300
	for r := range readers {
		wg.Go(func() {
			for n := range each {
				id := fmt.Sprint("m", (r+n)%40)
				if n%50 == 0 {
					id = "missing"
				}
				asked := int(clock.Add(1))
				v, err := b.head(context.Background(), id, nil)
				if id == "missing" {
					if !errors.Is(err, domain.ErrMatchNotFound) {
						t.Errorf("head of a missing match: %v, want ErrMatchNotFound", err)
					}
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				if v <= asked {
					t.Errorf("check asked at %d answered by a query started at %d", asked, v)
					return
				}
			}
		})
	}
	wg.Wait()
	if q := queries.Load(); q >= readers*each/2 {
		t.Errorf("%d checks took %d queries: want them shared", readers*each, q)
	} else {
		t.Logf("%d checks in %d queries (%.1f distinct ids each)", readers*each, q, float64(ids.Load())/float64(q))
	}
	// A reader returns once its group's answer is in, which a drainer publishes just before it
	// counts its query ended: the batch goes idle a moment after the last reader returns.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		b.mu.Lock()
		running, pending := b.running, b.pending
		b.mu.Unlock()
		if running == 0 && pending == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the batch is not idle: %d running, pending %v", running, pending)
		}
	}
}

// TestHeadBatchFailures: a failing query fails each of its checks, and the next check runs a
// new query; a reader whose context ends while it waits leaves with that error, and the
// others are still answered.
func TestHeadBatchFailures(t *testing.T) {
	down := errors.New("connection refused")
	var fail atomic.Bool
	release := make(chan struct{})
	b := &headBatch{limit: 1, query: func(ctx context.Context, _ *sql.DB, g *headGroup) error {
		if fail.Load() {
			return down
		}
		<-release
		for i := range g.ids {
			g.versions[i] = 7
		}
		return nil
	}}
	fail.Store(true)
	if _, err := b.head(context.Background(), "a", nil); !errors.Is(err, down) {
		t.Fatalf("head on a failing store: %v, want %v", err, down)
	}
	fail.Store(false)

	// The first check holds a query open; the next ones wait for theirs.
	first := make(chan error, 1)
	go func() { _, err := b.head(context.Background(), "a", nil); first <- err }()
	for {
		b.mu.Lock()
		n := b.running
		b.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() { _, err := b.head(ctx, "b", nil); left <- err }()
	cancel()
	select {
	case err := <-left:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a reader whose context ended: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a reader whose context ended still waits")
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if v, err := b.head(context.Background(), "c", nil); err != nil || v != 7 {
		t.Fatalf("head after: %d, %v", v, err)
	}
}
