package storetest

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// RacingAppends: 16 goroutines race to append the next move of one match, each reading the log,
// deciding and appending at the version it read. Half go through a, half through b: two stores
// on one database, as two processes or two server instances would be, so the race is decided by
// the database, not by anything in one process. Exactly one append may win each version; the
// rest must get the version conflict, never a raw driver error. Meanwhile readers keep reading
// other matches.
func RacingAppends(t *testing.T, a, b referee.EventStore) {
	stores := []referee.EventStore{a, b}
	hot := NewFixture(t, "hot", Base, 1000, "ann", "bob")
	if err := hot.Create(ctx, a); err != nil {
		t.Fatal(err)
	}
	others := PlayedMatches(t, a, "cold-", 4, 10)

	const racers, goal = 16, 40
	r := &race{hot: hot, goal: goal, wins: map[int][]domain.Event{}}
	fails := make(chan error, racers+len(others))
	var wg sync.WaitGroup
	// Any failure ends the race for everyone, so no goroutine waits for a goal never reached.
	start := func(f func() error) {
		wg.Go(func() {
			if err := f(); err != nil {
				fails <- err
				r.done.Store(true)
			}
		})
	}
	for i := range racers {
		s := stores[i%2]
		start(func() error { return r.appendUntilGoal(s) })
	}
	for i, f := range others {
		s := stores[i%2]
		start(func() error { return r.readUntilDone(s, f.Record.ID) })
	}
	wg.Wait()
	close(fails)
	for err := range fails {
		t.Error(err)
	}
	if t.Failed() {
		return
	}

	checkRacedLog(t, a, b, hot, r.wins)
	t.Logf("%d versions won, %d appends lost the race, %d reads of other matches meanwhile", len(r.wins), r.lost.Load(), r.reads.Load())
	if r.lost.Load() == 0 {
		t.Error("no append ever lost a race: the test did not race")
	}
	if r.reads.Load() == 0 {
		t.Error("no reads of other matches happened during the race")
	}
}

// PlayedMatches stores n matches with ids prefix0, prefix1, ..., a second apart, each with up
// to moves random legal moves appended one by one.
func PlayedMatches(tb testing.TB, s referee.EventStore, prefix string, n, moves int) []*Fixture {
	tb.Helper()
	out := make([]*Fixture, n)
	for i := range out {
		f := NewFixture(tb, fmt.Sprintf("%s%d", prefix, i), Base.Add(time.Duration(i)*time.Second), 0)
		if err := f.Create(ctx, s); err != nil {
			tb.Fatal(err)
		}
		f.PlayToEnd(tb, s, moves)
		out[i] = f
	}
	return out
}

// race is what the goroutines of RacingAppends share.
type race struct {
	hot   *Fixture
	goal  int // the version at which the racers stop
	mu    sync.Mutex
	wins  map[int][]domain.Event // expected version -> the winner's events
	lost  atomic.Int64
	reads atomic.Int64
	done  atomic.Bool
}

// appendUntilGoal is one racer: it reads the hot match, decides its next move and appends it
// at the version it read, until the log reaches the goal.
func (r *race) appendUntilGoal(s referee.EventStore) error {
	for !r.done.Load() {
		events, err := s.Events(ctx, "hot", 0, 0)
		if err != nil {
			return err
		}
		m, err := domain.Resume("hot", r.hot.Record.Seed, events)
		if err != nil {
			return err
		}
		if m.Version() >= r.goal || m.Finished() {
			r.done.Store(true)
			return nil
		}
		expected := m.Version()
		next, err := Step(m, nil, Base.Add(time.Duration(expected)*time.Second))
		if err != nil {
			return err
		}
		err = s.Append(ctx, referee.Append{MatchID: "hot", Expected: expected, Events: next, Summary: m.Summary()})
		var vc *domain.VersionConflictError
		switch {
		case err == nil:
			if err := r.won(expected, next); err != nil {
				return err
			}
		case errors.As(err, &vc) && vc.Expected == expected && vc.Current > expected:
			r.lost.Add(1)
		default:
			return fmt.Errorf("racer at version %d: %w", expected, err)
		}
	}
	return nil
}

// won records the winner of a version; a second winner is the failure the test looks for.
func (r *race) won(expected int, events []domain.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.wins[expected]; dup {
		return fmt.Errorf("two appends won version %d", expected)
	}
	r.wins[expected] = events
	return nil
}

// readUntilDone reads another match's log, the history and the match's chain while the race
// goes on.
func (r *race) readUntilDone(s referee.EventStore, id string) error {
	for !r.done.Load() {
		if _, err := s.Events(ctx, id, 0, 0); err != nil {
			return err
		}
		if _, err := s.History(ctx, referee.HistoryQuery{Limit: 3}); err != nil {
			return err
		}
		if rep, err := s.VerifyChain(ctx, id); err != nil || !rep.OK {
			return fmt.Errorf("verify %s: %+v %v", id, rep, err)
		}
		r.reads.Add(1)
	}
	return nil
}

// checkRacedLog checks that the hot match's log is exactly the winners' events, each version
// once, in order, with a sound chain as either store sees it, and that it folds.
func checkRacedLog(t *testing.T, a, b referee.EventStore, hot *Fixture, wins map[int][]domain.Event) {
	t.Helper()
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
	SameEvents(t, events, want)
	if rep, err := b.VerifyChain(ctx, "hot"); err != nil || !rep.OK || rep.Events != len(events) {
		t.Fatalf("chain after the race: %+v %v", rep, err)
	}
	if _, err := domain.Resume("hot", hot.Record.Seed, events); err != nil {
		t.Fatalf("the raced log does not fold: %v", err)
	}
}
