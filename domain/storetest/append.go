package storetest

import (
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// testRejectsBrokenSequence: events must continue the log at Expected+1 with no gap; a bad
// batch is refused whole and leaves the log as it was.
func testRejectsBrokenSequence(t *testing.T, s domain.EventStore) {
	f := NewFixture(t, "m-seq", Base, 0)
	mustCreate(t, s, f)
	a := f.Next(t)

	gap := a
	gap.Events = append([]domain.Event(nil), a.Events...)
	gap.Events[0].Seq += 1
	empty := a
	empty.Events = nil
	for name, bad := range map[string]domain.Append{"gap": gap, "empty": empty} {
		if err := s.Append(ctx, bad); err == nil || errors.Is(err, domain.ErrVersionConflict) {
			t.Errorf("%s batch: got %v, want an error that is not a version conflict", name, err)
		}
	}
	SameEvents(t, mustEvents(t, s, f.Record.ID, 0, 0), f.Opening)
	if err := s.Append(ctx, a); err != nil {
		t.Fatalf("the good batch after the bad ones: %v", err)
	}
}

func testIdempotency(t *testing.T, s domain.EventStore) {
	f := NewFixture(t, "m-idem", Base, 0)
	mustCreate(t, s, f)
	a := f.Next(t)
	rec := domain.IdempotencyRecord{
		Key: "key-1", Seat: 0, Fingerprint: "sha256:abc",
		FirstSeq: a.Expected + 1, LastSeq: a.Expected + len(a.Events), CreatedAt: a.Events[0].At,
	}
	a.Idempotency = &rec
	if err := s.Append(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Idempotency(ctx, f.Record.ID, "key-1")
	if err != nil || !ok {
		t.Fatalf("idempotency: ok %v err %v", ok, err)
	}
	if got.Key != rec.Key || got.Seat != rec.Seat || got.Fingerprint != rec.Fingerprint ||
		got.FirstSeq != rec.FirstSeq || got.LastSeq != rec.LastSeq || !got.CreatedAt.Equal(rec.CreatedAt) {
		t.Fatalf("idempotency record %+v, want %+v", got, rec)
	}
	if _, ok, err := s.Idempotency(ctx, f.Record.ID, "key-2"); ok || err != nil {
		t.Fatalf("unknown key: ok %v err %v", ok, err)
	}

	// A record is stored only with its append: a conflicting append stores no record.
	stale := f.Next(t)
	stale.Expected--
	stale.Idempotency = &domain.IdempotencyRecord{Key: "key-2", Fingerprint: "x"}
	if err := s.Append(ctx, stale); !errors.Is(err, domain.ErrVersionConflict) {
		t.Fatalf("stale append: %v", err)
	}
	if _, ok, _ := s.Idempotency(ctx, f.Record.ID, "key-2"); ok {
		t.Fatal("a failed append left its idempotency record behind")
	}

	// A key already recorded for this match refuses the append whole.
	next := stale
	next.Expected++
	next.Idempotency = &domain.IdempotencyRecord{Key: "key-1", Fingerprint: "other"}
	if err := s.Append(ctx, next); !errors.Is(err, domain.ErrIdempotencyReuse) {
		t.Fatalf("append reusing a key: got %v, want ErrIdempotencyReuse", err)
	}
	if evs := mustEvents(t, s, f.Record.ID, 0, 0); len(evs) != next.Expected {
		t.Fatalf("the refused append changed the log: %d events, want %d", len(evs), next.Expected)
	}

	// Zero FirstSeq and LastSeq are filled with the seqs the append produced.
	next.Idempotency = &domain.IdempotencyRecord{Key: "key-3", Seat: 1, Fingerprint: "y"}
	if err := s.Append(ctx, next); err != nil {
		t.Fatal(err)
	}
	got, ok, err = s.Idempotency(ctx, f.Record.ID, "key-3")
	if err != nil || !ok || got.FirstSeq != next.Expected+1 || got.LastSeq != next.Expected+len(next.Events) || got.Seat != 1 {
		t.Fatalf("record with seqs filled in: %+v ok %v err %v", got, ok, err)
	}
	// Keys are per match: another match may use the same key.
	g := NewFixture(t, "m-idem-2", Base, 0)
	mustCreate(t, s, g)
	b := g.Next(t)
	b.Idempotency = &domain.IdempotencyRecord{Key: "key-1", Fingerprint: "z"}
	if err := s.Append(ctx, b); err != nil {
		t.Fatalf("same key on another match: %v", err)
	}
}

// testCopies: nothing a caller does to slices it passed in or got back changes the store.
func testCopies(t *testing.T, s domain.EventStore) {
	f := NewFixture(t, "m-copy", Base, 0)
	want := f.Record
	want.Seats = append([]domain.SeatRecord(nil), f.Record.Seats...)
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

func testVerifyChain(t *testing.T, s domain.EventStore) {
	f := NewFixture(t, "m-chain", Base, 0)
	mustCreate(t, s, f)
	for range 25 {
		if f.Match.Finished() {
			break
		}
		if err := s.Append(ctx, f.Next(t)); err != nil {
			t.Fatal(err)
		}
	}
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
		prev = domain.ChainHash(prev, e.Seq, e.Type, data)
	}
	return hex.EncodeToString(prev)
}

// at returns Base plus d, a shorthand for spacing fixtures in time.
func at(d time.Duration) time.Time { return Base.Add(d) }
