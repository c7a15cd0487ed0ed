package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/tournament"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// instance is one server's services over its own connection to the shared database.
type instance struct {
	store  *postgres.Store
	svc    *referee.MatchService
	people *players.Service
	tours  *tournaments.Service
}

func startInstance(t *testing.T, url string) *instance {
	st := openAt(t, url, postgres.Options{})
	people := players.NewService(players.Config{Store: st})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: st, Bots: bot.Strategies(5), Players: people})
	tours := tournaments.New(tournaments.Config{Store: st, Matches: svc, Players: people})
	ctx, cancel := context.WithCancel(context.Background())
	followed, driven := make(chan struct{}), make(chan struct{})
	go func() { defer close(followed); _ = svc.Follow(ctx, st) }()
	go func() { defer close(driven); tours.Run(ctx, 5*time.Millisecond) }()
	t.Cleanup(func() { cancel(); <-followed; <-driven })
	return &instance{store: st, svc: svc, people: people, tours: tours}
}

// TestTournamentOnTwoInstances: two instances drive one tournament of eight bots over three
// rounds at once; every round is paired and started once, every table gets exactly one match
// (no match is created that the log does not name), and the audit holds.
func TestTournamentOnTwoInstances(t *testing.T) {
	pgtest.Require(t)
	url := pgtest.URL(t)
	a, b := startInstance(t, url), startInstance(t, url)
	created, err := a.people.Create(ctx, "Organiser")
	if err != nil {
		t.Fatal(err)
	}
	st, err := a.tours.Create(ctx, created.Key, tournament.Spec{Name: "Shared", Format: tournament.Format2P, System: tournament.Swiss, Rounds: 3, Target: 50})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := b.tours.Enter(ctx, st.ID, created.Key, []string{"random", "greedy"}[i%2]); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 2)
	go func() { done <- a.tours.Start(ctx, st.ID, created.Key) }()
	go func() { b.tours.Sweep(ctx); done <- nil }()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	var got tournaments.Tournament
	for i := 0; ; i++ {
		if got, err = b.tours.Get(ctx, st.ID); err != nil {
			t.Fatal(err)
		}
		if got.State.Status == tournament.Finished {
			break
		}
		if i > 3000 {
			t.Fatalf("the tournament never finished: %s, %d rounds", got.State.Status, len(got.State.Rounds))
		}
		time.Sleep(10 * time.Millisecond)
	}
	rounds := 0
	for _, l := range got.Links {
		if l.Type == tournament.TypeRound {
			rounds++
		}
	}
	if rounds != 3 {
		t.Fatalf("%d rounds started, want 3", rounds)
	}
	page, err := a.store.History(ctx, referee.HistoryQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Matches) != 3*4 {
		t.Fatalf("%d matches created for 12 tables", len(page.Matches))
	}
	rep, err := a.tours.Audit(ctx, st.ID)
	if err != nil || !rep.OK {
		t.Fatalf("audit %+v %v", rep, err)
	}
}
