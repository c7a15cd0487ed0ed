package reviews_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
)

// wantState checks rev's State of match id.
func wantState(t *testing.T, rev *reviews.Service, id string, st reviews.Status, ok bool) {
	t.Helper()
	got, can, err := rev.State(ctx, id)
	if err != nil || can != ok || got != st {
		t.Fatalf("state of %s: %q ok %v, %v; want %q ok %v", id, got, can, err, st, ok)
	}
}

// TestState: a live match has no state; a finished one none until asked, running while this
// service or (as the store says) another computes it, then done; a review whose record
// cannot be reviewed is failed. State itself queues nothing.
func TestState(t *testing.T) {
	store := memstore.New()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	held := make(chan struct{})
	started := make(chan struct{}, 1)
	engine := func(ctx context.Context, events []domain.Event, opts analysis.Options) (*analysis.Result, error) {
		started <- struct{}{}
		<-held
		return analysis.Review(ctx, events, opts)
	}
	rev := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small, Engine: engine})
	defer rev.Close()
	if _, _, err := rev.State(ctx, "nosuch"); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("state of no match: %v", err)
	}
	live, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "Ann", Kind: domain.Human}, {Name: "Bob", Kind: domain.Bot, Bot: "greedy"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, rev, live.Match.ID, "", false)

	id := finished(t, svc)
	wantState(t, rev, id, reviews.StatusNone, true)
	wantState(t, rev, id, reviews.StatusNone, true) // asking the state queued nothing
	if _, ok, _ := store.Review(ctx, id, rev.Method()); ok {
		t.Fatal("State stored a review")
	}
	if _, err := rev.Request(ctx, id); err != nil {
		t.Fatal(err)
	}
	<-started
	wantState(t, rev, id, reviews.StatusRunning, true)
	// Another instance on the store, computing nothing itself, reads it running from the store.
	other := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small})
	defer other.Close()
	wantState(t, other, id, reviews.StatusRunning, true)
	close(held)
	if err := rev.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	wantState(t, rev, id, reviews.StatusDone, true)
	wantState(t, other, id, reviews.StatusDone, true)

	bad := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small, Logger: slog.New(slog.DiscardHandler),
		Engine: func(context.Context, []domain.Event, analysis.Options) (*analysis.Result, error) {
			return nil, analysis.ErrBadLog
		}})
	defer bad.Close()
	corrupt := finished(t, svc)
	if _, err := bad.Request(ctx, corrupt); err != nil {
		t.Fatal(err)
	}
	if err := bad.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	wantState(t, bad, corrupt, reviews.StatusFailed, true)
}

// TestStateOfSealedMatch: a finished match that is sealed (a duplicate round still played)
// has no state, as it can have no review, and neither has one whose seal cannot be read: the
// view fails closed.
func TestStateOfSealedMatch(t *testing.T) {
	store := memstore.New()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	rev := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small})
	defer rev.Close()
	c, err := svc.Create(ctx, referee.CreateRequest{Target: 50, Seed: "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a",
		Players: []domain.PlayerInfo{{Name: "Ann", Kind: domain.Bot, Bot: "greedy"}, {Name: "Bob", Kind: domain.Bot, Bot: "random"}}})
	if err != nil || c.Match.Status != domain.StatusFinished {
		t.Fatalf("create: %v %v", c.Match.Status, err)
	}
	id := c.Match.ID
	wantState(t, rev, id, reviews.StatusNone, true)
	var seal error
	sealed := true
	svc.SetSealer(func(context.Context, string, string) (bool, error) { return sealed, seal })
	wantState(t, rev, id, "", false)
	sealed, seal = false, errors.New("the tournaments' store is down")
	wantState(t, rev, id, "", false)
	seal = nil
	wantState(t, rev, id, reviews.StatusNone, true)
}
