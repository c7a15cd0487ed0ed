package storetest

import (
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// testIdempotencyPerSeat: keys are per seat (docs/api-matches.md, "Idempotency"). Two seats of one
// match each store a record under the same key; each reads back only its own, a seat that
// never used the key finds nothing, and a key reused within one seat still refuses the
// append whole.
func testIdempotencyPerSeat(t *testing.T, s referee.EventStore) {
	f := NewFixture(t, "m-idem-seat", Base, 0, "ann", "bob", "cy")
	mustCreate(t, s, f)
	var want []referee.IdempotencyRecord
	for seat := range 2 {
		a := f.Next(t)
		a.Idempotency = &referee.IdempotencyRecord{Key: "1", Seat: seat, Fingerprint: "fp-" + string(rune('a'+seat)), CreatedAt: Base}
		if err := s.Append(ctx, a); err != nil {
			t.Fatalf("seat %d's key 1 after another seat's: %v", seat, err)
		}
		rec := *a.Idempotency
		rec.FirstSeq, rec.LastSeq = a.Expected+1, a.Expected+len(a.Events)
		want = append(want, rec)
	}
	for _, rec := range want {
		sameIdempotency(t, s, f.Record.ID, rec)
	}
	if got, ok, err := s.Idempotency(ctx, f.Record.ID, 2, "1"); ok || err != nil {
		t.Fatalf("seat 2, which never sent key 1, found %+v (ok %v, err %v)", got, ok, err)
	}

	// Reused within one seat, the key still conflicts, and the refused append leaves nothing.
	again := f.Next(t)
	again.Idempotency = &referee.IdempotencyRecord{Key: "1", Seat: 1, Fingerprint: "other", CreatedAt: Base}
	if err := s.Append(ctx, again); !errors.Is(err, domain.ErrIdempotencyReuse) {
		t.Fatalf("seat 1 reusing its key: got %v, want ErrIdempotencyReuse", err)
	}
	if evs := mustEvents(t, s, f.Record.ID, 0, 0); len(evs) != again.Expected {
		t.Fatalf("the refused append changed the log: %d events, want %d", len(evs), again.Expected)
	}
	sameIdempotency(t, s, f.Record.ID, want[1])

	// The audit sees both records of the key, in seat order.
	all, err := s.IdempotencyRecords(ctx, f.Record.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Seat != 0 || all[1].Seat != 1 || all[0].Fingerprint != want[0].Fingerprint ||
		all[1].Fingerprint != want[1].Fingerprint || all[0].Key != "1" || all[1].Key != "1" {
		t.Fatalf("IdempotencyRecords: %+v, want %+v", all, want)
	}
}
