package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/storetest"
)

// gate holds the committer inside its first batch, just before COMMIT, until opened, so that
// a test can queue a known set of appends behind it: they all go into the next batch. It
// records every batch's size, and fails the batches whose number is in fail.
type gate struct {
	entered chan struct{}
	open    chan struct{}
	fail    map[int]error
	mu      sync.Mutex
	sizes   []int
}

func hold(s *Store, fail map[int]error) *gate {
	g := &gate{entered: make(chan struct{}), open: make(chan struct{}), fail: fail}
	s.gc.mu.Lock()
	s.gc.beforeCommit = g.beforeCommit
	s.gc.mu.Unlock()
	return g
}

func (g *gate) beforeCommit(n int) error {
	g.mu.Lock()
	g.sizes = append(g.sizes, n)
	k := len(g.sizes)
	g.mu.Unlock()
	if k == 1 {
		close(g.entered)
		<-g.open
	}
	return g.fail[k]
}

func (g *gate) batches() []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]int(nil), g.sizes...)
}

// waitQueued yields until n appends wait in the committer's queue.
func waitQueued(s *Store, n int) {
	for {
		s.gc.mu.Lock()
		q := len(s.gc.queue)
		s.gc.mu.Unlock()
		if q >= n {
			return
		}
		runtime.Gosched()
	}
}

func openTest(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gc.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// created stores n fixtures named prefix0.., each with moves appends played.
func created(t *testing.T, s *Store, prefix string, n, moves int) []*storetest.Fixture {
	t.Helper()
	out := make([]*storetest.Fixture, n)
	for i := range out {
		out[i] = storetest.NewFixture(t, fmt.Sprintf("%s%d", prefix, i), storetest.Base, 1000)
		if err := out[i].Create(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		out[i].PlayToEnd(t, s, moves)
	}
	return out
}

// appendAll runs the appends concurrently and returns their errors, in order.
func appendAll(s *Store, as []referee.Append) []error {
	errs := make([]error, len(as))
	var wg sync.WaitGroup
	for i, a := range as {
		wg.Go(func() { errs[i] = s.Append(context.Background(), a) })
	}
	wg.Wait()
	return errs
}

// reopened closes s, opens its file again and fails unless that holds every fixture's log.
func reopened(t *testing.T, s *Store, path string, fs []*storetest.Fixture) *Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	for _, f := range fs {
		sameLog(t, r, f.Record.ID, f.Events)
	}
	return r
}

// sameLog fails unless the store holds exactly want for the match.
func sameLog(t *testing.T, s *Store, id string, want []domain.Event) {
	t.Helper()
	got, err := s.Events(context.Background(), id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameEvents(t, got, want)
	rep, err := s.VerifyChain(context.Background(), id)
	if err != nil || !rep.OK {
		t.Fatalf("%s: chain %+v, %v", id, rep, err)
	}
}

// TestGroupCommitStaleAppenderFailsAlone: sixteen appends to sixteen matches and one stale
// append (a version its match has passed) commit in one batch; only the stale one fails, with
// the version conflict, and every other match holds its events.
func TestGroupCommitStaleAppenderFailsAlone(t *testing.T) {
	s, _ := openTest(t)
	fs := created(t, s, "gc-", 17, 3)
	lead := storetest.NewFixture(t, "lead", storetest.Base, 1000)
	if err := lead.Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	as := make([]referee.Append, len(fs))
	for i, f := range fs {
		as[i] = f.Next(t)
	}
	stale := 16
	as[stale].Expected-- // the log is one further than this appender believes
	errs := batchOf(t, s, lead.Next(t), as, nil)
	for i, err := range errs {
		var vc *domain.VersionConflictError
		switch {
		case i == stale && (!errors.As(err, &vc) || vc.Current != as[i].Expected+1):
			t.Errorf("stale append: %v, want a version conflict at %d", err, as[i].Expected+1)
		case i != stale && err != nil:
			t.Errorf("append %d: %v", i, err)
		}
	}
	for i, f := range fs {
		want := f.Events
		if i == stale {
			want = want[:len(want)-len(as[i].Events)]
		}
		sameLog(t, s, f.Record.ID, want)
	}
	sameLog(t, s, "lead", lead.Events)
}

// TestGroupCommitFailedCommit: a batch whose COMMIT fails answers every caller in it with the
// error, keeps none of its events, and loses nothing acknowledged before it; the same appends
// then commit on a retry, and everything survives a reopen.
func TestGroupCommitFailedCommit(t *testing.T) {
	s, path := openTest(t)
	fs := created(t, s, "gc-", 8, 2)
	boom := errors.New("disk full (simulated)")
	lead := storetest.NewFixture(t, "lead", storetest.Base, 1000)
	if err := lead.Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	before := make([][]domain.Event, len(fs))
	as := make([]referee.Append, len(fs))
	for i, f := range fs {
		before[i] = append([]domain.Event(nil), f.Events...)
		as[i] = f.Next(t)
	}
	for i, err := range batchOf(t, s, lead.Next(t), as, boom) {
		if !errors.Is(err, boom) {
			t.Errorf("append %d in the failed batch: %v, want the commit's error", i, err)
		}
	}
	for i, f := range fs {
		sameLog(t, s, f.Record.ID, before[i])
	}
	sameLog(t, s, "lead", lead.Events)

	// The store goes on: the same appends commit now.
	for i, err := range appendAll(s, as) {
		if err != nil {
			t.Fatalf("retry %d: %v", i, err)
		}
	}
	r := reopened(t, s, path, fs)
	sameLog(t, r, "lead", lead.Events)
}

// TestGroupCommitManyMovers: 24 goroutines play their own matches to the end through the
// committer at once; every log is whole and chained, and the read model is at its head.
func TestGroupCommitManyMovers(t *testing.T) {
	s, _ := openTest(t)
	fs := created(t, s, "mover-", 24, 0)
	var wg sync.WaitGroup
	errs := make([]error, len(fs))
	for i, f := range fs {
		wg.Go(func() {
			for n := 0; n < 60 && !f.Match.Finished() && errs[i] == nil; n++ {
				errs[i] = s.Append(context.Background(), f.Next(t))
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		sameLog(t, s, f.Record.ID, f.Events)
		m, err := s.Match(context.Background(), f.Record.ID)
		if err != nil {
			t.Fatal(err)
		}
		storetest.SameSummary(t, m.Summary, f.Match.Summary())
	}
}

// TestAppendAfterClose: the committer refuses appends once the store is closed.
func TestAppendAfterClose(t *testing.T) {
	s, _ := openTest(t)
	f := created(t, s, "c-", 1, 0)[0]
	s.Close()
	if err := s.Append(context.Background(), f.Next(t)); !errors.Is(err, errClosed) {
		t.Fatalf("append after close: %v", err)
	}
}
