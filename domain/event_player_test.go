package domain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// TestAnonymousPayloadsEncodeAsBefore: the player field of a bound seat is absent for an
// anonymous one, so the payloads of every match without players are the bytes they were
// before players existed (and their hash chains the same), while a bound seat carries it.
func TestAnonymousPayloadsEncodeAsBefore(t *testing.T) {
	before := []struct {
		d    domain.EventData
		want string
	}{
		{domain.MatchCreated{Players: []domain.PlayerInfo{{Seat: 0, Name: "Ada", Kind: domain.Human}}}, `{"players":[{"seat":0,"name":"Ada","kind":"human"}],`},
		{domain.MatchCreated{Players: []domain.PlayerInfo{{Seat: 1, Name: "Bo", Kind: domain.Bot, Bot: "greedy"}}}, `{"players":[{"seat":1,"name":"Bo","kind":"bot","bot":"greedy"}],`},
		{domain.MatchCreated{Players: []domain.PlayerInfo{{Seat: 2, Kind: domain.Open}}}, `{"players":[{"seat":2,"name":"","kind":"open"}],`},
		{domain.SeatJoined{Seat: 2, Name: "Cy"}, `{"seat":2,"name":"Cy"}`},
		{domain.MatchCreated{Players: []domain.PlayerInfo{{Seat: 0, Name: "Ada", Kind: domain.Human, Player: "p1"}}}, `{"players":[{"seat":0,"name":"Ada","kind":"human","player":"p1"}],`},
		{domain.SeatJoined{Seat: 2, Name: "Cy", Player: "p2"}, `{"seat":2,"name":"Cy","player":"p2"}`},
	}
	for _, c := range before {
		d, want := c.d, c.want
		got, err := domain.EncodeData(d)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(got), want) {
			t.Errorf("%T encodes as %s, want it to start %s", d, got, want)
		}
	}
	// A whole anonymous match's opening: not a "player" anywhere.
	spec := domain.MatchSpec{Players: []domain.PlayerInfo{{Seat: 0, Name: "Ada", Kind: domain.Human}, {Seat: 1, Kind: domain.Open}}, Target: 100}
	seed, err := domain.ParseSeed(strings.Repeat("ab", 32))
	if err != nil {
		t.Fatal(err)
	}
	events, err := domain.Start(spec, seed, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume("m1", seed, events)
	if err != nil {
		t.Fatal(err)
	}
	joined, err := m.DecideJoin(1, "Bo", time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range append(events, joined...) {
		b, err := domain.EncodeData(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"player"`) {
			t.Fatalf("%s of an anonymous match: %s", e.Type, b)
		}
	}
}

// TestJoinAsRefusesASecondSeat: one player never holds two seats of a match.
func TestJoinAsRefusesASecondSeat(t *testing.T) {
	spec := domain.MatchSpec{Players: []domain.PlayerInfo{{Seat: 0, Name: "Ada", Kind: domain.Human, Player: "p1"}, {Seat: 1, Kind: domain.Open}, {Seat: 2, Kind: domain.Open}}, Target: 100}
	seed, _ := domain.ParseSeed(strings.Repeat("cd", 32))
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume("m1", seed, events)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.DecideJoinAs(1, "Ada again", "p1", at); err == nil || !strings.Contains(err.Error(), "seat 0") {
		t.Fatalf("a second seat for p1: %v", err)
	}
	if _, err := m.DecideJoinAs(1, "Bo", "p2", at); err != nil {
		t.Fatalf("p2: %v", err)
	}
}
