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
