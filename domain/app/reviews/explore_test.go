package reviews_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
)

// gatedMatches is the referee with its log reads held at a gate: each read says it started
// on entered, then waits for open to be closed.
type gatedMatches struct {
	*referee.MatchService
	entered chan struct{}
	open    chan struct{}
}

func (g gatedMatches) Events(ctx context.Context, id string, v domain.Viewer, after, limit int) ([]domain.Event, int, error) {
	g.entered <- struct{}{}
	<-g.open
	return g.MatchService.Events(ctx, id, v, after, limit)
}

// firstDecision is the seq of the first decision of match id's review as the engine makes it.
func firstDecision(t *testing.T, store *memstore.Store, id string) analysis.Decision {
	t.Helper()
	events, err := store.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Review(ctx, events, small)
	if err != nil || len(res.Decisions) == 0 {
		t.Fatalf("review: %v, %d decisions", err, len(res.Decisions))
	}
	return res.Decisions[0]
}

// TestExploreIsBounded: computed explorations take one of the workers' places, wait in a
// queue no longer than the review queue (ErrQueueFull beyond it) and count against their
// asker's keys (ErrTooManyRunning beyond Config.PerClient); each answers the review's values.
func TestExploreIsBounded(t *testing.T) {
	store := memstore.New()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	id := finished(t, svc)
	d := firstDecision(t, store, id)
	gate := gatedMatches{MatchService: svc, entered: make(chan struct{}, 8), open: make(chan struct{})}
	rev := reviews.New(reviews.Config{Store: store, Matches: gate, Options: small, Workers: 1, Queue: 1, PerClient: 1})
	defer rev.Close()

	type answer struct {
		x   analysis.Exploration
		err error
	}
	ask := func(key string) chan answer {
		out := make(chan answer, 1)
		go func() {
			x, err := rev.Explore(ctx, id, d.Seq, reviews.Asker{Keys: []string{key}})
			for errors.Is(err, reviews.ErrQueueFull) { // the probe below held the place a moment
				x, err = rev.Explore(ctx, id, d.Seq, reviews.Asker{Keys: []string{key}})
			}
			out <- answer{x, err}
		}()
		return out
	}
	first := ask("a")
	<-gate.entered // computing: the one place is taken
	if _, err := rev.Explore(ctx, id, d.Seq, reviews.Asker{Keys: []string{"a"}}); !errors.Is(err, reviews.ErrTooManyRunning) {
		t.Fatalf("a second exploration by one key: %v, want ErrTooManyRunning", err)
	}
	second := ask("b")
	// A probe that finds the queue free gives its place back soon: its context ends.
	waitFor(t, func() bool {
		probe, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		_, err := rev.Explore(probe, id, d.Seq, reviews.Asker{Keys: []string{"c"}})
		return errors.Is(err, reviews.ErrQueueFull)
	})
	close(gate.open)
	want := analysis.ExplorationOf(d)
	for _, ch := range []chan answer{first, second} {
		a := <-ch
		if a.err != nil || !reflect.DeepEqual(a.x, want) {
			t.Fatalf("explored %+v %v, reviewed %+v", a.x, a.err, want)
		}
	}
	if _, err := rev.Explore(ctx, id, d.Seq, reviews.Asker{Keys: []string{"a"}}); err != nil {
		t.Fatalf("once done, the key explores again: %v", err)
	}
}

// waitFor polls cond until it holds: the second asker's place in the queue is taken by a
// goroutine that says nothing when it gets there.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("the condition never held")
		}
		time.Sleep(time.Millisecond)
	}
}
