package storetest

import (
	"context"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// Base is the creation time of the suite's first match. Stores must keep the full
// nanosecond instant, so it has nanoseconds.
var Base = time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)

// Run checks store against the EventStore contract. open must return a new, empty store for
// each call; it is called once per subtest.
func Run(t *testing.T, open func(t *testing.T) referee.EventStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, referee.EventStore)
	}{
		{"CreateAndLoad", testCreateAndLoad},
		{"CreateDuplicate", testCreateDuplicate},
		{"TimesInUTC", testTimesInUTC},
		{"AppendAndRead", testAppendAndRead},
		{"VersionConflict", testVersionConflict},
		{"ConcurrentAppend", testConcurrentAppend},
		{"NotFound", testNotFound},
		{"RejectsBrokenSequence", testRejectsBrokenSequence},
		{"Idempotency", testIdempotency},
		{"IdempotencyPerMatch", testIdempotencyPerMatch},
		{"IdempotencyPerSeat", testIdempotencyPerSeat},
		{"SeededRoundTrip", testSeededRoundTrip},
		{"Copies", testCopies},
		{"VerifyChain", testVerifyChain},
		{"Links", testLinks},
		{"HistoryOrderAndPaging", testHistoryPaging},
		{"HistoryFilters", testHistoryFilters},
		{"HistoryStableCursor", testHistoryStableCursor},
		{"HistoryBadCursor", testHistoryBadCursor},
		{"SeatsAndLobby", testSeatsAndLobby},
		{"Due", testDue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

var ctx = context.Background()

func mustCreate(t *testing.T, s referee.EventStore, f *Fixture) {
	t.Helper()
	if err := f.Create(ctx, s); err != nil {
		t.Fatalf("create %s: %v", f.Record.ID, err)
	}
}

func mustEvents(t *testing.T, s referee.EventStore, id string, after, limit int) []domain.Event {
	t.Helper()
	evs, err := s.Events(ctx, id, after, limit)
	if err != nil {
		t.Fatalf("events %s after %d limit %d: %v", id, after, limit, err)
	}
	return evs
}

func mustMatch(t *testing.T, s referee.EventStore, id string) referee.StoredMatch {
	t.Helper()
	sm, err := s.Match(ctx, id)
	if err != nil {
		t.Fatalf("match %s: %v", id, err)
	}
	return sm
}

// sameRecord compares a loaded record with what was created.
func sameRecord(t *testing.T, got, want referee.MatchRecord) {
	t.Helper()
	if got.ID != want.ID || got.Seed != want.Seed {
		t.Fatalf("record %s seed %s, want %s seed %s", got.ID, got.Seed, want.ID, want.Seed)
	}
	if !got.CreatedAt.Equal(want.CreatedAt) || got.CreatedAt.Location() != time.UTC {
		t.Fatalf("created_at %v, want %v in UTC", got.CreatedAt, want.CreatedAt)
	}
	if !slices.EqualFunc(got.Seats, want.Seats, func(a, b referee.SeatRecord) bool {
		return a.Seat == b.Seat && a.Name == b.Name && a.Kind == b.Kind && a.Bot == b.Bot &&
			hex.EncodeToString(a.TokenHash) == hex.EncodeToString(b.TokenHash)
	}) {
		t.Fatalf("seats %+v, want %+v", got.Seats, want.Seats)
	}
}

func testCreateAndLoad(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-create", Base, 0, "ann", "bob", "cy")
	mustCreate(t, s, f)
	sm := mustMatch(t, s, f.Record.ID)
	sameRecord(t, sm.Record, f.Record)
	SameSummary(t, sm.Summary, f.Match.Summary())
	SameEvents(t, mustEvents(t, s, f.Record.ID, 0, 0), f.Opening)

	// The stored log folds to the same match as the one it came from.
	m, err := domain.Resume(f.Record.ID, sm.Record.Seed, mustEvents(t, s, f.Record.ID, 0, 0))
	if err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	SameSummary(t, m.Summary(), f.Match.Summary())
}

func testCreateDuplicate(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-dup", Base, 0)
	mustCreate(t, s, f)
	g := NewFixture(t, "m-dup", Base.Add(time.Hour), 0, "zed", "yan")
	err := g.Create(ctx, s)
	var vc *domain.VersionConflictError
	if !errors.As(err, &vc) || vc.Expected != 0 || vc.Current != len(f.Opening) {
		t.Fatalf("second create of the same id: got %v, want a version conflict (0, %d)", err, len(f.Opening))
	}
	sameRecord(t, mustMatch(t, s, "m-dup").Record, f.Record)
}

func testTimesInUTC(t *testing.T, s referee.EventStore) {
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	f := NewFixture(t, "m-zone", Base.In(zone), 0)
	for i := range f.Opening {
		f.Opening[i].At = f.Opening[i].At.In(zone)
	}
	mustCreate(t, s, f)
	a := f.Next(t)
	a.Events[0].At = a.Events[0].At.In(zone)
	a.Summary.UpdatedAt = a.Summary.UpdatedAt.In(zone)
	a.Idempotency = &referee.IdempotencyRecord{Key: "k", Fingerprint: "fp", CreatedAt: a.Events[0].At}
	if err := s.Append(ctx, a); err != nil {
		t.Fatal(err)
	}
	sm := mustMatch(t, s, "m-zone")
	sameRecord(t, sm.Record, f.Record) // CreatedAt must come back in UTC
	SameSummary(t, sm.Summary, f.Match.Summary())
	SameEvents(t, mustEvents(t, s, "m-zone", 0, 0), f.Events)
	rec, ok, err := s.Idempotency(ctx, "m-zone", 0, "k")
	if err != nil || !ok || rec.CreatedAt.Location() != time.UTC || !rec.CreatedAt.Equal(a.Events[0].At) {
		t.Fatalf("idempotency created_at: %+v %v %v", rec, ok, err)
	}
}

func testAppendAndRead(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-append", Base, 0)
	mustCreate(t, s, f)
	for range 40 {
		if f.Match.Finished() {
			break
		}
		a := f.Next(t)
		if err := s.Append(ctx, a); err != nil {
			t.Fatalf("append at %d: %v", a.Expected, err)
		}
		SameSummary(t, mustMatch(t, s, f.Record.ID).Summary, f.Match.Summary())
	}
	n := len(f.Events)
	SameEvents(t, mustEvents(t, s, f.Record.ID, 0, 0), f.Events)
	SameEvents(t, mustEvents(t, s, f.Record.ID, 3, 0), f.Events[3:])
	SameEvents(t, mustEvents(t, s, f.Record.ID, 3, 5), f.Events[3:8])
	SameEvents(t, mustEvents(t, s, f.Record.ID, n-2, 10), f.Events[n-2:])
	if evs := mustEvents(t, s, f.Record.ID, n, 0); len(evs) != 0 {
		t.Fatalf("events after the head: got %d, want none", len(evs))
	}
	if evs := mustEvents(t, s, f.Record.ID, n+5, 3); len(evs) != 0 {
		t.Fatalf("events past the head: got %d, want none", len(evs))
	}
	// Paging through the log with after = the last seq seen visits every event once.
	var paged []domain.Event
	for after := 0; ; {
		page := mustEvents(t, s, f.Record.ID, after, 7)
		if len(page) == 0 {
			break
		}
		paged = append(paged, page...)
		after = page[len(page)-1].Seq
	}
	SameEvents(t, paged, f.Events)
}

func testVersionConflict(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-conflict", Base, 0)
	mustCreate(t, s, f)
	a := f.Next(t)
	if err := s.Append(ctx, a); err != nil {
		t.Fatal(err)
	}
	head := f.Match.Version()
	for _, expected := range []int{a.Expected, 0, head + 1, head + 10} {
		stale := a
		stale.Expected = expected
		err := s.Append(ctx, stale)
		if !errors.Is(err, domain.ErrVersionConflict) {
			t.Fatalf("append at %d when the log is at %d: got %v, want ErrVersionConflict", expected, head, err)
		}
		var vc *domain.VersionConflictError
		if !errors.As(err, &vc) || vc.Expected != expected || vc.Current != head {
			t.Fatalf("conflict error %#v, want Expected %d Current %d", vc, expected, head)
		}
		if domain.CodeOf(err) != domain.CodeVersionConflict {
			t.Fatalf("code %s", domain.CodeOf(err))
		}
	}
	SameEvents(t, mustEvents(t, s, f.Record.ID, 0, 0), f.Events)
	SameSummary(t, mustMatch(t, s, f.Record.ID).Summary, f.Match.Summary())
}

// testConcurrentAppend races appends at the same version: exactly one may win.
func testConcurrentAppend(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-race", Base, 0)
	mustCreate(t, s, f)
	a := f.Next(t)
	const racers = 8
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() { errs[i] = s.Append(ctx, a) })
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, domain.ErrVersionConflict):
			t.Fatalf("a racer got %v, want nil or a version conflict", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d racers won, want exactly 1", wins)
	}
	SameEvents(t, mustEvents(t, s, f.Record.ID, 0, 0), f.Events)
}

func testNotFound(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-exists", Base, 0)
	mustCreate(t, s, f)
	a := f.Next(t)
	a.MatchID = "nope"
	checks := map[string]error{"Append": s.Append(ctx, a)}
	_, checks["Match"] = s.Match(ctx, "nope")
	_, checks["Events"] = s.Events(ctx, "nope", 0, 0)
	_, checks["VerifyChain"] = s.VerifyChain(ctx, "nope")
	_, checks["IdempotencyRecords"] = s.IdempotencyRecords(ctx, "nope")
	for name, err := range checks {
		if !errors.Is(err, domain.ErrMatchNotFound) {
			t.Errorf("%s of an unknown match: got %v, want ErrMatchNotFound", name, err)
		}
	}
	if _, ok, err := s.Idempotency(ctx, "nope", 0, "k"); ok || err != nil {
		t.Errorf("Idempotency of an unknown match: ok %v err %v, want false, nil", ok, err)
	}
}
