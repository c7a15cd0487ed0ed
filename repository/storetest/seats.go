package storetest

import (
	"bytes"
	"crypto/sha256"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// seatedMatch is a match NewOpenMatch created, with its record, for the joins below.
type seatedMatch struct {
	rec   referee.MatchRecord
	match *domain.Match
}

// NewOpenMatch creates a three-seat match in s with seat 0 taken by "ann" and seats 1 and 2
// open (each with an invite hash), listed when listed, with a 30-second clock; it returns the
// record and the match as stored.
func NewOpenMatch(t *testing.T, s referee.EventStore, id string, at time.Time, listed bool) (referee.MatchRecord, *domain.Match) {
	t.Helper()
	seed := domain.Seed(sha256.Sum256([]byte("seed/" + id)))
	players := []domain.PlayerInfo{{Name: "ann", Kind: domain.Human}, {Kind: domain.Open}, {Kind: domain.Open}}
	events, err := domain.Start(domain.MatchSpec{Players: players, Listed: listed, TurnSeconds: 30}, seed, at)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume(id, seed, events)
	if err != nil {
		t.Fatal(err)
	}
	tok, inv1, inv2 := sha256.Sum256([]byte("t0"+id)), sha256.Sum256([]byte("i1"+id)), sha256.Sum256([]byte("i2"+id))
	rec := referee.MatchRecord{ID: id, Seed: seed, CreatedAt: at, Seats: []referee.SeatRecord{
		{Seat: 0, Name: "ann", Kind: domain.Human, TokenHash: tok[:]},
		{Seat: 1, Kind: domain.Open, InviteHash: inv1[:]},
		{Seat: 2, Kind: domain.Open, InviteHash: inv2[:]},
	}}
	if err := s.Create(ctx, rec, events, m.Summary()); err != nil {
		t.Fatal(err)
	}
	return rec, m
}

// newSeatedMatch is NewOpenMatch's match with its record.
func newSeatedMatch(t *testing.T, s referee.EventStore, id string, at time.Time, listed bool) *seatedMatch {
	t.Helper()
	rec, m := NewOpenMatch(t, s, id, at, listed)
	return &seatedMatch{rec: rec, match: m}
}

// join appends seat's join (and the deal, for the last one) with the new seat record.
func (sm *seatedMatch) join(t *testing.T, s referee.EventStore, seat int, name string, at time.Time) {
	t.Helper()
	expected := sm.match.Version()
	events, err := sm.match.DecideJoin(seat, name, at)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if err := sm.match.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	tok := sha256.Sum256([]byte(name))
	sr := sm.rec.Seats[seat]
	sr.Name, sr.Kind, sr.TokenHash = name, domain.Human, tok[:]
	sm.rec.Seats[seat] = sr
	a := referee.Append{MatchID: sm.rec.ID, Expected: expected, Events: events, Summary: sm.match.Summary(), Seats: []referee.SeatRecord{sr}}
	if err := s.Append(ctx, a); err != nil {
		t.Fatalf("append the join of seat %d: %v", seat, err)
	}
}

// testSeatsAndLobby: an append replaces the seat records it carries in the same transaction;
// the waiting filter lists only listed matches with an open seat.
func testSeatsAndLobby(t *testing.T, s referee.EventStore) {
	listed := newSeatedMatch(t, s, "listed", Base, true)
	newSeatedMatch(t, s, "unlisted", Base.Add(time.Second), false)
	lobby := func() []string {
		page, err := s.History(ctx, referee.HistoryQuery{Status: domain.StatusWaiting})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, it := range page.Matches {
			ids = append(ids, it.ID)
			if !it.Summary.Listed || len(it.Summary.OpenSeats) == 0 || it.Summary.Target == 0 || it.Summary.TurnSeconds != 30 {
				t.Errorf("lobby item %+v lacks what the lobby shows", it.Summary)
			}
		}
		return ids
	}
	if got := lobby(); !slices.Equal(got, []string{"listed"}) {
		t.Fatalf("lobby %v, want [listed]", got)
	}
	listed.join(t, s, 2, "cy", Base.Add(2*time.Second))
	stored := mustMatch(t, s, "listed")
	if sr := stored.Record.Seats[2]; sr.Kind != domain.Human || sr.Name != "cy" || !bytes.Equal(sr.InviteHash, listed.rec.Seats[2].InviteHash) || len(sr.TokenHash) != 32 {
		t.Fatalf("seat 2 after a join: %+v", sr)
	}
	if got := stored.Summary.OpenSeats; !slices.Equal(got, []int{1}) || stored.Summary.Status != domain.StatusWaiting {
		t.Fatalf("read model after one join: open %v status %s", got, stored.Summary.Status)
	}
	listed.join(t, s, 1, "bo", Base.Add(3*time.Second))
	stored = mustMatch(t, s, "listed")
	SameSummary(t, stored.Summary, listed.match.Summary())
	if stored.Summary.Status != domain.StatusInProgress || stored.Summary.Turn == nil || stored.Summary.Deadline == nil {
		t.Fatalf("after the last join: %+v", stored.Summary)
	}
	if got := lobby(); len(got) != 0 {
		t.Fatalf("lobby %v after every seat was taken, want none", got)
	}
	page, err := s.History(ctx, referee.HistoryQuery{Player: "bo"})
	if err != nil || len(page.Matches) != 1 {
		t.Fatalf("the player filter finds a joined name: %v %v", page.Matches, err)
	}
}

// testDue: Due lists a match once its turn deadline has come, and a waiting match once its last
// event is old enough; the soonest first.
func testDue(t *testing.T, s referee.EventStore) {
	clocked := newSeatedMatch(t, s, "clocked", Base, false)
	clocked.join(t, s, 1, "bo", Base)
	clocked.join(t, s, 2, "cy", Base)
	newSeatedMatch(t, s, "waiting", Base.Add(time.Minute), true)
	due := func(now, waitingBefore time.Time) []string {
		ids, err := s.Due(ctx, referee.DueQuery{Now: now, WaitingBefore: waitingBefore, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	deadline := *clocked.match.Summary().Deadline
	if got := due(deadline.Add(-time.Nanosecond), time.Time{}); len(got) != 0 {
		t.Fatalf("due before the deadline: %v", got)
	}
	if got := due(deadline, time.Time{}); !slices.Equal(got, []string{"clocked"}) {
		t.Fatalf("due at the deadline: %v", got)
	}
	if got := due(deadline, Base.Add(time.Minute)); !slices.Equal(got, []string{"clocked", "waiting"}) {
		t.Fatalf("due with expiry: %v", got)
	}
	if got := due(Base, Base.Add(time.Minute-time.Nanosecond)); len(got) != 0 {
		t.Fatalf("a waiting match due before its time: %v", got)
	}
}
