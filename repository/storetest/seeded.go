package storetest

import (
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// testSeededRoundTrip: Summary.Seeded (the creator chose the seed) comes back from Match and
// from every history and lobby item as Create stored it, for seeded and unseeded matches alike,
// and an append does not change it, whatever its summary says.
func testSeededRoundTrip(t *testing.T, s referee.EventStore) {
	seeded := NewFixture(t, "m-seeded", Base, 0)
	plain := unseededFixture(t, "m-plain", Base.Add(time.Second))
	for _, f := range []*Fixture{seeded, plain} {
		mustCreate(t, s, f)
		want := f.Match.Summary().Seeded
		if got := mustMatch(t, s, f.Record.ID).Summary.Seeded; got != want {
			t.Fatalf("%s after Create: seeded %v, want %v", f.Record.ID, got, want)
		}
		a := f.Next(t)
		a.Summary.Seeded = !want // a careless caller: the creation's answer stands
		if err := s.Append(ctx, a); err != nil {
			t.Fatal(err)
		}
		SameSummary(t, mustMatch(t, s, f.Record.ID).Summary, f.Match.Summary())
		if err := s.Append(ctx, f.Next(t)); err != nil {
			t.Fatal(err)
		}
		SameSummary(t, mustMatch(t, s, f.Record.ID).Summary, f.Match.Summary())
	}
	if !seeded.Match.Summary().Seeded || plain.Match.Summary().Seeded {
		t.Fatal("the fixtures do not differ in Seeded")
	}
	byID := map[string]*Fixture{seeded.Record.ID: seeded, plain.Record.ID: plain}
	page, err := s.History(ctx, referee.HistoryQuery{})
	if err != nil || len(page.Matches) != 2 {
		t.Fatalf("history: %+v %v", page, err)
	}
	for _, it := range page.Matches {
		SameSummary(t, it.Summary, byID[it.ID].Match.Summary())
	}

	// The lobby shows it too.
	_, open := NewOpenMatch(t, s, "open-plain", Base.Add(2*time.Second), true)
	openSeeded := newSeededOpenMatch(t, s, "open-seeded", Base.Add(3*time.Second))
	lobby, err := s.History(ctx, referee.HistoryQuery{Status: domain.StatusWaiting})
	if err != nil || len(lobby.Matches) != 2 {
		t.Fatalf("lobby: %+v %v", lobby, err)
	}
	for _, it := range lobby.Matches {
		want := map[string]*domain.Match{"open-plain": open, "open-seeded": openSeeded}[it.ID]
		if want == nil {
			t.Fatalf("lobby lists %s", it.ID)
		}
		SameSummary(t, it.Summary, want.Summary())
	}
}

// unseededFixture is NewFixture's match as if the server had drawn the seed: its match.created
// says seeded false.
func unseededFixture(t *testing.T, id string, at time.Time) *Fixture {
	t.Helper()
	f := NewFixture(t, id, at, 0)
	events, err := domain.Start(domain.MatchSpec{Players: f.Match.Players()}, f.Record.Seed, at)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume(id, f.Record.Seed, events)
	if err != nil {
		t.Fatal(err)
	}
	f.Opening, f.Match, f.Events = events, m, append([]domain.Event(nil), events...)
	return f
}

// newSeededOpenMatch creates a listed two-seat match whose creator chose the seed, seat 1 open.
func newSeededOpenMatch(t *testing.T, s referee.EventStore, id string, at time.Time) *domain.Match {
	t.Helper()
	_, m := createOpenSeat(t, s, id, at, domain.MatchSpec{Listed: true, Seeded: true}, "ann", "", "")
	return m
}
