package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/repository/sqlite"
)

// TestSeekClaimsOfADeadMatcher: claims a matcher left pairing (it died between the claim and
// the settlement) are settled by the next matcher once they are 30 s old: matched when their
// match was created, searching again (and then paired anew) when it was not.
func TestSeekClaimsOfADeadMatcher(t *testing.T) {
	ctx := context.Background()
	store, _ := openStore(t, sqlite.Options{})
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1), Players: people})
	t.Cleanup(svc.Close)
	now := time.Now().UTC()
	clock := func() time.Time { return now }
	sk := seeks.New(seeks.Config{Store: store, Matches: svc, Keys: people, Rule: matchmaking.Rule{Window: 2}, Now: clock})
	seekOf := func(name, format string) (string, seeks.Record) {
		c, err := people.Create(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sk.Create(ctx, c.Key, seeks.Request{Format: format})
		if err != nil {
			t.Fatal(err)
		}
		return c.Player.ID, r
	}
	adaID, ada := seekOf("Ada", "2p")
	bobID, bob := seekOf("Bob", "2p")
	_, cy := seekOf("Cy", "3p")
	_, dee := seekOf("Dee", "3p")
	_, eve := seekOf("Eve", "3p")
	// A dead matcher claimed ada and bob for a match it created, and cy, dee and eve for one it
	// never created.
	const made, lost = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	claim := func(match string, ids ...string) {
		var cl []seeks.Claim
		for i, id := range ids {
			cl = append(cl, seeks.Claim{Seek: id, Seat: i})
		}
		if ok, err := store.ClaimSeeks(ctx, match, cl, now); err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
	}
	claim(made, ada.ID, bob.ID)
	claim(lost, cy.ID, dee.ID, eve.ID)
	if _, err := svc.CreatePaired(ctx, made, referee.CreateRequest{TurnSeconds: 60}, []referee.PairedSeat{{Player: adaID}, {Player: bobID}}); err != nil {
		t.Fatal(err)
	}
	status := func(id string) seeks.Record {
		r, _, err := store.Seek(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if _, err := sk.PairOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if status(ada.ID).Status != seeks.StatusPairing || status(cy.ID).Status != seeks.StatusPairing {
		t.Fatal("claims settled before their grace")
	}
	now = now.Add(31 * time.Second)
	n, err := sk.PairOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := status(bob.ID); r.Status != seeks.StatusMatched || r.Match != made || r.Seat != 1 {
		t.Fatalf("the created match's seek: %+v", r)
	}
	for _, id := range []string{cy.ID, dee.ID, eve.ID} {
		if r := status(id); r.Status != seeks.StatusMatched || r.Match == lost || r.Match == "" {
			t.Fatalf("the lost match's seek, searching again, then paired: %+v", r)
		}
	}
	if n != 1 {
		t.Fatalf("the pass made %d matches, want 1 (the lost claim's seeks, anew)", n)
	}
}

// TestSeekExpires: a seek past --seek-ttl reads expired at once, and the matcher's sweep
// writes it so; it is never paired.
func TestSeekExpires(t *testing.T) {
	ctx := context.Background()
	store, _ := openStore(t, sqlite.Options{})
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1), Players: people})
	t.Cleanup(svc.Close)
	now := time.Now().UTC()
	sk := seeks.New(seeks.Config{Store: store, Matches: svc, Keys: people, Rule: matchmaking.Rule{Window: 2, BotAfter: time.Second}, TTL: time.Minute, Now: func() time.Time { return now }})
	c, err := people.Create(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sk.Create(ctx, c.Key, seeks.Request{Format: "2p"})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	if got, err := sk.Get(ctx, c.Key, r.ID); err != nil || got.Status != seeks.StatusExpired {
		t.Fatalf("read after its time: %+v %v", got, err)
	}
	if n, err := sk.PairOnce(ctx); err != nil || n != 0 {
		t.Fatalf("an expired seek paired (with bots): %d %v", n, err)
	}
	if got, _, err := store.Seek(ctx, r.ID); err != nil || got.Status != seeks.StatusExpired {
		t.Fatalf("stored after the sweep: %+v %v", got, err)
	}
}
