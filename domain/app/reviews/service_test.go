package reviews_test

import (
	"context"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
)

var ctx = context.Background()

// small is a budget that reviews a short match in a fraction of a second.
var small = analysis.Options{Rollouts: 40, HindsightNodes: 300, ParRuns: 1, ParRollouts: 20}

// finished stores a short match of bots, played to its end, and returns its id.
func finished(t *testing.T, svc *referee.MatchService) string {
	t.Helper()
	c, err := svc.Create(ctx, referee.CreateRequest{Target: 50, Players: []domain.PlayerInfo{
		{Name: "Ann", Kind: domain.Bot, Bot: "greedy"}, {Name: "Bob", Kind: domain.Bot, Bot: "random"},
	}})
	if err != nil || c.Match.Status != domain.StatusFinished {
		t.Fatalf("create: %v %v", c.Match.Status, err)
	}
	return c.Match.ID
}

// TestCloseLeavesReviewRunning: a review being computed when the service closes stays
// stored running, and the next service on the store computes it when asked, to the bytes
// the engine gives.
func TestCloseLeavesReviewRunning(t *testing.T) {
	store := memstore.New()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	id := finished(t, svc)
	started := make(chan struct{})
	held := func(ctx context.Context, events []domain.Event, opts analysis.Options) (*analysis.Result, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	first := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small, Engine: held})
	if ans, err := first.Request(ctx, id); err != nil || ans.Status != reviews.StatusRunning {
		t.Fatalf("request: %+v %v", ans, err)
	}
	<-started
	first.Close()
	rec, ok, err := store.Review(ctx, id, first.Method())
	if err != nil || !ok || rec.Status != reviews.StatusRunning {
		t.Fatalf("after close: %+v %v %v", rec, ok, err)
	}

	second := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small})
	defer second.Close()
	if ans, err := second.Get(ctx, id); err != nil || ans.Status != reviews.StatusRunning {
		t.Fatalf("get of a review left running: %+v %v", ans, err)
	}
	if err := second.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	ans, err := second.Get(ctx, id)
	if err != nil || ans.Status != reviews.StatusDone {
		t.Fatalf("get after the recompute: %+v %v", ans.Status, err)
	}
	events, err := store.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Review(ctx, events, small)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := reviews.Encode(res); string(ans.Result) != string(want) {
		t.Fatalf("stored review is not the engine's:\n%s\n%s", ans.Result, want)
	}
}

// TestRefusals: no match, a live match and a review never asked for are told apart.
func TestRefusals(t *testing.T) {
	store := memstore.New()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	rev := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small})
	defer rev.Close()
	if _, err := rev.Request(ctx, "nosuch"); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("no match: %v", err)
	}
	live, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "Ann", Kind: domain.Human}, {Name: "Bob", Kind: domain.Bot, Bot: "greedy"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ask := range []func(context.Context, string) (reviews.Answer, error){rev.Request, rev.Get} {
		if _, err := ask(ctx, live.Match.ID); !errors.Is(err, domain.ErrMatchNotFinished) {
			t.Fatalf("live match: %v", err)
		}
	}
	if _, err := rev.Get(ctx, finished(t, svc)); !errors.Is(err, reviews.ErrNotRequested) {
		t.Fatalf("never asked: %v", err)
	}
}

// TestRefusedBeforeAnythingIsQueued: a match not played to its end (waiting for a seat,
// withdrawn before its deal, live) has no review: Request and Get answer ErrMatchNotFinished,
// nothing is stored or queued, and the view's state says nothing of a review. A sealed match is
// refused for its seal first, whatever its state.
func TestRefusedBeforeAnythingIsQueued(t *testing.T) {
	store := memstore.New()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	rev := reviews.New(reviews.Config{Store: store, Matches: svc, Options: small})
	defer rev.Close()
	open := func() referee.Created {
		c, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
			{Name: "Ann", Kind: domain.Human}, {Kind: domain.Open},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	waiting, withdrawn := open(), open()
	v, err := svc.Authenticate(ctx, withdrawn.Match.ID, withdrawn.Tokens[0].Token)
	if err != nil {
		t.Fatal(err)
	}
	if view, err := svc.Cancel(ctx, withdrawn.Match.ID, v); err != nil || view.Status != domain.StatusCancelled {
		t.Fatalf("withdraw: %v %v", view.Status, err)
	}
	live, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "Ann", Kind: domain.Human}, {Name: "Bob", Kind: domain.Bot, Bot: "greedy"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{waiting.Match.ID, withdrawn.Match.ID, live.Match.ID} {
		for _, ask := range []func(context.Context, string) (reviews.Answer, error){rev.Request, rev.Get} {
			if _, err := ask(ctx, id); !errors.Is(err, domain.ErrMatchNotFinished) {
				t.Errorf("match %s: %v, want MATCH_NOT_FINISHED", id, err)
			}
		}
		if _, ok, err := store.Review(ctx, id, rev.Method()); ok || err != nil {
			t.Errorf("match %s: a review was stored (%v)", id, err)
		}
		if st, ok, err := rev.State(ctx, id); ok || err != nil {
			t.Errorf("match %s: the view's review state %q %v %v", id, st, ok, err)
		}
	}
	svc.SetSealer(func(context.Context, string, string) (bool, error) { return true, nil })
	seeded, err := svc.Create(ctx, referee.CreateRequest{Seed: "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a",
		Players: []domain.PlayerInfo{{Name: "Ann", Kind: domain.Human}, {Name: "Bob", Kind: domain.Bot, Bot: "greedy"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ask := range []func(context.Context, string) (reviews.Answer, error){rev.Request, rev.Get} {
		if _, err := ask(ctx, seeded.Match.ID); !errors.Is(err, domain.ErrMatchSealed) {
			t.Errorf("a live sealed match: %v, want MATCH_SEALED", err)
		}
	}
}
