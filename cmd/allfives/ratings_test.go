package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
)

// TestRatingsRebuild: `allfives ratings --check` finds the live table equal to the rebuild
// from the logs, figure for figure; a figure changed behind its back is found; --rebuild
// puts the logs' figures back.
func TestRatingsRebuild(t *testing.T) {
	ctx := context.Background()
	store, path := sqliteFile(t, "off")
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(5)})
	lineups := [][]string{{"random", "greedy"}, {"greedy", "random"}}
	made := 0
	for i := range 24 {
		names := lineups[i%2]
		var seats []domain.PlayerInfo
		for j, b := range names {
			seats = append(seats, domain.PlayerInfo{Name: "b" + string(rune('0'+j)), Kind: domain.Bot, Bot: b})
		}
		if _, err := svc.Create(ctx, referee.CreateRequest{Players: seats, Target: 25, Rated: true}); err != nil {
			t.Fatal(err)
		}
		made++
	}
	// An unrated match of bots, which the ratings leave alone.
	if _, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{{Name: "x", Kind: domain.Bot, Bot: "random"}, {Name: "y", Kind: domain.Bot, Bot: "random"}}, Target: 25}); err != nil {
		t.Fatal(err)
	}
	if n, err := ratings.NewProjector(ratings.Config{Store: store, Logs: store}).Drain(ctx); err != nil || n != made {
		t.Fatalf("the projection rated %d matches (%v), want %d", n, err, made)
	}
	svc.Close()
	store.Close()

	ratingsCmd := func(flags ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, append([]string{"ratings", "--db", path}, flags...), func(string) string { return "" }, &out)
		return out.String(), err
	}
	out, err := ratingsCmd("--check")
	if err != nil || !strings.Contains(out, "24 rated matches ended from the logs: 24 matches rated, 2 ratings") || !strings.Contains(out, "figure for figure") {
		t.Fatalf("--check: %v\n%s", err, out)
	}
	tamper(t, path, `UPDATE ratings SET mu = mu + 1e-9 WHERE player_id = 'bot-greedy'`)
	if out, err := ratingsCmd("--check"); err == nil || !strings.Contains(err.Error(), "bot-greedy") {
		t.Fatalf("--check after a figure changed: %v\n%s", err, out)
	}
	if out, err := ratingsCmd("--rebuild"); err != nil || !strings.Contains(out, "now holds the rebuild") {
		t.Fatalf("--rebuild: %v\n%s", err, out)
	}
	if out, err := ratingsCmd("--check"); err != nil {
		t.Fatalf("--check after --rebuild: %v\n%s", err, out)
	}
	if _, err := ratingsCmd(); err == nil {
		t.Fatal("ratings without --rebuild or --check ran")
	}
}
