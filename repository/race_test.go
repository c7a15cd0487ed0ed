package repository_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/storetest"
	"github.com/allfives/allfives/repository"
)

// TestRacingAppends: 16 goroutines race to append the next move of one match, each reading the
// log, deciding and appending at the version it read. Half go through a second Store on the
// same file, as a second process would, so the race is decided by SQLite's write lock and
// busy_timeout, not only by the writer pool. Exactly one append may win each version; the rest
// must get the version conflict, never SQLITE_BUSY or a constraint error. Meanwhile readers
// keep reading other matches.
func TestRacingAppends(t *testing.T) {
	a, path := openStore(t, repository.Options{})
	b, err := repository.Open(ctx, path, repository.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	stores := []*repository.Store{a, b}

	hot := storetest.NewFixture(t, "hot", storetest.Base, 1000, "ann", "bob")
	if err := hot.Create(ctx, a); err != nil {
		t.Fatal(err)
	}
	var others []*storetest.Fixture
	for i := range 4 {
		f := storetest.NewFixture(t, fmt.Sprintf("cold-%d", i), storetest.Base.Add(time.Duration(i)*time.Second), 0)
		if err := f.Create(ctx, a); err != nil {
			t.Fatal(err)
		}
		f.PlayToEnd(t, a, 10)
		others = append(others, f)
	}

	const racers, goal = 16, 40
	var (
		mu    sync.Mutex
		wins  = map[int][]domain.Event{} // expected version -> the winner's events
		lost  atomic.Int64
		done  atomic.Bool
		wg    sync.WaitGroup
		fails = make(chan error, racers+8)
	)
	for i := range racers {
		s := stores[i%2]
		wg.Go(func() {
			for !done.Load() {
				events, err := s.Events(ctx, "hot", 0, 0)
				if err != nil {
					fails <- err
					return
				}
				m, err := domain.Rebuild("hot", hot.Record.Seed, events)
				if err != nil {
					fails <- err
					return
				}
				if m.Version() >= goal || m.Finished() {
					done.Store(true)
					return
				}
				expected := m.Version()
				next, err := storetest.Step(m, nil, storetest.Base.Add(time.Duration(expected)*time.Second))
				if err != nil {
					fails <- err
					return
				}
				err = s.Append(ctx, domain.Append{MatchID: "hot", Expected: expected, Events: next, Summary: m.Summary()})
				var vc *domain.VersionConflictError
				switch {
				case err == nil:
					mu.Lock()
					if _, dup := wins[expected]; dup {
						fails <- fmt.Errorf("two appends won version %d", expected)
					}
					wins[expected] = next
					mu.Unlock()
				case errors.As(err, &vc) && vc.Expected == expected && vc.Current > expected:
					lost.Add(1)
				default:
					fails <- fmt.Errorf("racer at version %d: %w", expected, err)
					return
				}
			}
		})
	}

	// Readers of other matches go on while the race runs, through both stores.
	var reads atomic.Int64
	for i := range 4 {
		s, f := stores[i%2], others[i]
		wg.Go(func() {
			for !done.Load() {
				if _, err := s.Events(ctx, f.Record.ID, 0, 0); err != nil {
					fails <- err
					return
				}
				if _, err := s.History(ctx, domain.HistoryQuery{Limit: 3}); err != nil {
					fails <- err
					return
				}
				if rep, err := s.VerifyChain(ctx, f.Record.ID); err != nil || !rep.OK {
					fails <- fmt.Errorf("verify %s: %+v %v", f.Record.ID, rep, err)
					return
				}
				reads.Add(1)
			}
		})
	}
	wg.Wait()
	close(fails)
	for err := range fails {
		t.Error(err)
	}
	if t.Failed() {
		return
	}

	// The log is exactly the winners' events, each version once, in order, with a sound chain.
	events, err := a.Events(ctx, "hot", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]domain.Event(nil), hot.Opening...)
	for v := len(hot.Opening); v < len(events); {
		w, ok := wins[v]
		if !ok {
			t.Fatalf("the log moved past version %d but no racer won it", v)
		}
		want = append(want, w...)
		v += len(w)
	}
	storetest.SameEvents(t, events, want)
	if rep, err := b.VerifyChain(ctx, "hot"); err != nil || !rep.OK || rep.Events != len(events) {
		t.Fatalf("chain after the race: %+v %v", rep, err)
	}
	if _, err := domain.Rebuild("hot", hot.Record.Seed, events); err != nil {
		t.Fatalf("the raced log does not fold: %v", err)
	}
	t.Logf("%d versions won, %d appends lost the race, %d reads of other matches meanwhile", len(wins), lost.Load(), reads.Load())
	if lost.Load() == 0 {
		t.Error("no append ever lost a race: the test did not race")
	}
	if reads.Load() == 0 {
		t.Error("no reads of other matches happened during the race")
	}
}
