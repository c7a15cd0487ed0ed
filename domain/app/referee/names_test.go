package referee_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

// hiddenNames are names that look like another or like nothing: each hides a character that
// prints as nothing (the issue "A seat's secrets stay with the seat", item 4).
var hiddenNames = map[string]string{
	"zero-width space alone": "\u200b",
	"Hangul filler alone":    "\u3164",
	"byte order mark alone":  "\ufeff",
	"zero-width space":       "A\u200bda",
	"soft hyphen":            "A\u00adda",
	"word joiner":            "A\u2060da",
}

// TestSeedWithOpenSeatsRefused: a chosen seed lets its chooser compute every hand, so a match
// that others may join (listed or by invite) refuses one with SEED_WITH_OPEN_SEATS; without
// a seed it is created, and a seeded match of named seats still is.
func TestSeedWithOpenSeatsRefused(t *testing.T) {
	svc := newService(t, memstore.New(), 16)
	for _, listed := range []bool{false, true} {
		req := seated(listed, 0)
		req.Seed = vectorSeed
		_, err := svc.Create(context.Background(), req)
		if !errors.Is(err, domain.ErrSeedWithOpenSeats) || domain.CodeOf(err) != domain.CodeSeedWithOpenSeats {
			t.Fatalf("listed %v: a seed with open seats: %v", listed, err)
		}
		if !strings.Contains(err.Error(), "compute every hand") {
			t.Errorf("the refusal does not say why: %q", err)
		}
		req.Seed = ""
		if c := create(t, svc, req); c.Match.Seeded {
			t.Errorf("listed %v: a match with no seed given is seeded", listed)
		}
	}
	if c := create(t, svc, twoHumans(vectorSeed)); !c.Match.Seeded {
		t.Error("a seeded match of named seats is not marked seeded")
	}
	page, err := svc.History(context.Background(), referee.HistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	seeded := 0
	for _, m := range page.Matches {
		if m.Summary.Seeded {
			seeded++
		}
	}
	if len(page.Matches) != 3 || seeded != 1 {
		t.Errorf("history has %d matches, %d seeded; want 3, 1", len(page.Matches), seeded)
	}
}

// TestHiddenNamesRefused: a name holding a character that prints as nothing is refused at
// create and at join, with a detail that names the field and the character.
func TestHiddenNamesRefused(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	waiting := create(t, svc, seated(true, 0))
	for what, name := range hiddenNames {
		req := twoHumans("")
		req.Players[1].Name = name
		_, err := svc.Create(ctx, req)
		if domain.CodeOf(err) != domain.CodeInvalidRequest || !strings.Contains(err.Error(), "players[1].name") || !strings.Contains(err.Error(), "U+") {
			t.Errorf("create, %s: %v", what, err)
		}
		_, err = svc.Join(ctx, waiting.Match.ID, referee.JoinRequest{Seat: 1, Name: name})
		if domain.CodeOf(err) != domain.CodeInvalidRequest || !strings.Contains(err.Error(), "name must not hold invisible") {
			t.Errorf("join, %s: %v", what, err)
		}
	}
	// None of them took the seat: a name that shows takes it now.
	if _, err := svc.Join(ctx, waiting.Match.ID, referee.JoinRequest{Seat: 1, Name: "Ada"}); err != nil {
		t.Fatalf("seat 1 after the refused joins: %v", err)
	}
}

// TestSameNamesInOneMatch: two seats of one match may not have names that are one under the
// PRECIS Nickname comparison, which ignores case and width, at create or at join; the name
// is kept in its enforced form.
func TestSameNamesInOneMatch(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	for _, pair := range [][2]string{{"Ada", "Ada"}, {"Ada", "ada"}, {"Ada", "ＡＤＡ"}, {"Ada  Lovelace", "ada lovelace"}} {
		req := twoHumans("")
		req.Players[0].Name, req.Players[1].Name = pair[0], pair[1]
		_, err := svc.Create(ctx, req)
		if domain.CodeOf(err) != domain.CodeInvalidRequest || !strings.Contains(err.Error(), "same name as players[0]") {
			t.Errorf("create %q and %q: %v", pair[0], pair[1], err)
		}
	}
	req := seated(true, 0)
	req.Players[0].Name = "Ada"
	c := create(t, svc, req)
	for _, name := range []string{"ada", "ＡＤＡ", " ADA "} {
		_, err := svc.Join(ctx, c.Match.ID, referee.JoinRequest{Seat: 1, Name: name})
		if domain.CodeOf(err) != domain.CodeInvalidRequest || !strings.Contains(err.Error(), "same name as seat 0") {
			t.Errorf("join as %q beside Ada: %v", name, err)
		}
	}
	j, err := svc.Join(ctx, c.Match.ID, referee.JoinRequest{Seat: 1, Name: "ＢＯ"})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.Match.Seats[1].Name; got != "BO" {
		t.Errorf("the joined name is kept as %q, not its enforced form BO", got)
	}
	if _, err := svc.Join(ctx, c.Match.ID, referee.JoinRequest{Seat: 2, Name: "bo"}); domain.CodeOf(err) != domain.CodeInvalidRequest {
		t.Errorf("join as bo beside BO: %v", err)
	}
	if _, err := svc.Join(ctx, c.Match.ID, referee.JoinRequest{Seat: 2, Name: "Cy"}); err != nil {
		t.Errorf("a name of its own: %v", err)
	}
}
