package storetest

import (
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/audit"
)

// testRejectsBrokenSequence: events must continue the log at Expected+1 with no gap; a bad
// batch is refused whole and leaves the log as it was.
func testRejectsBrokenSequence(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-seq", Base, 0)
	mustCreate(t, s, f)
	a := f.Next(t)

	gap := a
	gap.Events = append([]domain.Event(nil), a.Events...)
	gap.Events[0].Seq += 1
	empty := a
	empty.Events = nil
	for name, bad := range map[string]referee.Append{"gap": gap, "empty": empty} {
		if err := s.Append(ctx, bad); err == nil || errors.Is(err, domain.ErrVersionConflict) {
			t.Errorf("%s batch: got %v, want an error that is not a version conflict", name, err)
		}
	}
	SameEvents(t, mustEvents(t, s, f.Record.ID, 0, 0), f.Opening)
	if err := s.Append(ctx, a); err != nil {
		t.Fatalf("the good batch after the bad ones: %v", err)
	}
}

// testIdempotency: a record is stored with its append and only then, a key is used once per
// seat of a match, and zero seqs are filled with the seqs the append wrote.
func testIdempotency(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-idem", Base, 0)
	mustCreate(t, s, f)
	a := f.Next(t)
	rec := referee.IdempotencyRecord{
		Key: "key-1", Seat: 0, Fingerprint: "sha256:abc",
		FirstSeq: a.Expected + 1, LastSeq: a.Expected + len(a.Events), CreatedAt: a.Events[0].At,
	}
	a.Idempotency = &rec
	if err := s.Append(ctx, a); err != nil {
		t.Fatal(err)
	}
	sameIdempotency(t, s, f.Record.ID, rec)
	if _, ok, err := s.Idempotency(ctx, f.Record.ID, 0, "key-2"); ok || err != nil {
		t.Fatalf("unknown key: ok %v err %v", ok, err)
	}

	// A record is stored only with its append: a conflicting append stores no record.
	stale := f.Next(t)
	stale.Expected--
	stale.Idempotency = &referee.IdempotencyRecord{Key: "key-2", Fingerprint: "x"}
	if err := s.Append(ctx, stale); !errors.Is(err, domain.ErrVersionConflict) {
		t.Fatalf("stale append: %v", err)
	}
	if _, ok, _ := s.Idempotency(ctx, f.Record.ID, 0, "key-2"); ok {
		t.Fatal("a failed append left its idempotency record behind")
	}

	// A key this seat already recorded for this match refuses the append whole.
	next := stale
	next.Expected++
	next.Idempotency = &referee.IdempotencyRecord{Key: "key-1", Fingerprint: "other"}
	if err := s.Append(ctx, next); !errors.Is(err, domain.ErrIdempotencyReuse) {
		t.Fatalf("append reusing a key: got %v, want ErrIdempotencyReuse", err)
	}
	if evs := mustEvents(t, s, f.Record.ID, 0, 0); len(evs) != next.Expected {
		t.Fatalf("the refused append changed the log: %d events, want %d", len(evs), next.Expected)
	}

	// Zero FirstSeq and LastSeq are filled with the seqs the append produced.
	next.Idempotency = &referee.IdempotencyRecord{Key: "key-3", Seat: 1, Fingerprint: "y", CreatedAt: Base}
	if err := s.Append(ctx, next); err != nil {
		t.Fatal(err)
	}
	filled := *next.Idempotency
	filled.FirstSeq, filled.LastSeq = next.Expected+1, next.Expected+len(next.Events)
	sameIdempotency(t, s, f.Record.ID, filled)

	// The audit reads every record of the match, in key order.
	all, err := s.IdempotencyRecords(ctx, f.Record.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Key != "key-1" || all[1].Key != "key-3" || all[0].FirstSeq != rec.FirstSeq || all[1].LastSeq != filled.LastSeq || all[1].Seat != 1 || all[1].Fingerprint != "y" {
		t.Fatalf("IdempotencyRecords: %+v", all)
	}
}

// testIdempotencyPerMatch: keys are per match, so another match may use the same key.
func testIdempotencyPerMatch(t *testing.T, s referee.EventStore) {
	var appends []referee.Append
	for _, id := range []string{"m-idem-1", "m-idem-2"} {
		f := NewFixture(t, id, Base, 0)
		mustCreate(t, s, f)
		a := f.Next(t)
		a.Idempotency = &referee.IdempotencyRecord{Key: "key-1", Fingerprint: id, CreatedAt: Base}
		if err := s.Append(ctx, a); err != nil {
			t.Fatalf("key-1 on %s: %v", id, err)
		}
		appends = append(appends, a)
	}
	for _, a := range appends {
		want := *a.Idempotency
		want.FirstSeq, want.LastSeq = a.Expected+1, a.Expected+len(a.Events)
		sameIdempotency(t, s, a.MatchID, want)
	}
}

// sameIdempotency fails the test unless s holds exactly want for (id, want.Seat, want.Key).
func sameIdempotency(t *testing.T, s referee.EventStore, id string, want referee.IdempotencyRecord) {
	t.Helper()
	got, ok, err := s.Idempotency(ctx, id, want.Seat, want.Key)
	if err != nil || !ok {
		t.Fatalf("idempotency %s/%s: ok %v err %v", id, want.Key, ok, err)
	}
	if got.Key != want.Key || got.Seat != want.Seat || got.Fingerprint != want.Fingerprint ||
		got.FirstSeq != want.FirstSeq || got.LastSeq != want.LastSeq || !got.CreatedAt.Equal(want.CreatedAt) {
		t.Fatalf("idempotency record %+v, want %+v", got, want)
	}
}

// testCopies: nothing a caller does to slices it passed in or got back changes the store.
func testCopies(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-copy", Base, 0)
	want := f.Record
	want.Seats = append([]referee.SeatRecord(nil), f.Record.Seats...)
	want.Seats[0].TokenHash = append([]byte(nil), f.Record.Seats[0].TokenHash...)
	sum := f.Match.Summary()
	if err := s.Create(ctx, f.Record, f.Opening, sum); err != nil {
		t.Fatal(err)
	}
	f.Record.Seats[0].Name = "mallory"
	f.Record.Seats[0].TokenHash[0] ^= 0xff
	sum.Scores[0] = 99
	sum.Players[0].Name = "mallory"

	sm := mustMatch(t, s, "m-copy")
	sameRecord(t, sm.Record, want)
	sm.Record.Seats[0].TokenHash[1] ^= 0xff
	sm.Summary.Scores[0] = 77
	sm = mustMatch(t, s, "m-copy")
	sameRecord(t, sm.Record, want)
	SameSummary(t, sm.Summary, f.Match.Summary())

	a := f.Next(t)
	if err := s.Append(ctx, a); err != nil {
		t.Fatal(err)
	}
	a.Summary.Scores[0] = 55
	a.Events[0].Seq = 1000
	SameSummary(t, mustMatch(t, s, "m-copy").Summary, f.Match.Summary())
	SameEvents(t, mustEvents(t, s, "m-copy", 0, 0), f.Events)
}

// testVerifyChain: a sound log verifies, and its head is the hash chain computed apart.
func testVerifyChain(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-chain", Base, 0)
	mustCreate(t, s, f)
	f.PlayToEnd(t, s, 25)
	rep, err := s.VerifyChain(ctx, f.Record.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || rep.FirstBadSeq != 0 || rep.Events != len(f.Events) {
		t.Fatalf("chain report %+v, want ok over %d events", rep, len(f.Events))
	}
	if want := ChainHead(t, f.Events); rep.HeadHash != want {
		t.Fatalf("head hash %s, want %s", rep.HeadHash, want)
	}
}

// ChainHead recomputes the head of the hash chain over events, independently of any store.
func ChainHead(tb testing.TB, events []domain.Event) string {
	tb.Helper()
	var prev []byte
	for _, e := range events {
		data, err := domain.EncodeData(e.Data)
		if err != nil {
			tb.Fatal(err)
		}
		prev = audit.ChainHash(prev, e.Seq, e.Type, data)
	}
	return hex.EncodeToString(prev)
}

// at returns Base plus d, a shorthand for spacing fixtures in time.
func at(d time.Duration) time.Time { return Base.Add(d) }
