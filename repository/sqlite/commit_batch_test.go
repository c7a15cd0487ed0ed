package sqlite

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/storetest"
)

// keyed gives a the idempotency record of key.
func keyed(a referee.Append, key string) referee.Append {
	last := a.Events[len(a.Events)-1].Seq
	a.Idempotency = &referee.IdempotencyRecord{Key: key, Seat: 0, Fingerprint: "0 pass",
		FirstSeq: a.Events[0].Seq, LastSeq: last, CreatedAt: time.Unix(1_700_000_000, 0).UTC()}
	return a
}

// batchOf commits as in one batch, queued in their order: a first append is held in its own
// batch while as queue behind it; it returns their errors and fails the test unless they
// shared one commit and the first append committed. When fail is not nil, the COMMIT of as's
// batch fails with it.
func batchOf(t *testing.T, s *Store, lead referee.Append, as []referee.Append, fail error) []error {
	t.Helper()
	g := hold(s, map[int]error{2: fail})
	leadDone := make(chan error, 1)
	go func() { leadDone <- s.Append(context.Background(), lead) }()
	<-g.entered
	errs := make([]error, len(as))
	var wg sync.WaitGroup
	for i, a := range as {
		wg.Go(func() { errs[i] = s.Append(context.Background(), a) })
		waitQueued(s, i+1)
	}
	close(g.open)
	wg.Wait()
	if err := <-leadDone; err != nil {
		t.Fatal(err)
	}
	if got := g.batches(); len(got) != 2 || got[1] != len(as) {
		t.Fatalf("batches %v, want [1 %d]: the appends did not share one commit", got, len(as))
	}
	return errs
}

// TestGroupCommitKeyClashFailsAlone: in a batch of keyed appends, one names a key its match has
// recorded already. Only that append fails, with ErrIdempotencyReuse, and leaves nothing of
// itself behind (its events and read model are rolled back with its savepoint); the others
// commit with their keys.
func TestGroupCommitKeyClashFailsAlone(t *testing.T) {
	s, _ := openTest(t)
	fs := created(t, s, "key-", 8, 0)
	lead := created(t, s, "lead-", 1, 0)[0]
	const clash = 5
	if err := s.Append(context.Background(), keyed(fs[clash].Next(t), "k-used")); err != nil {
		t.Fatal(err)
	}
	as := make([]referee.Append, len(fs))
	for i, f := range fs {
		key := "k-" + f.Record.ID
		if i == clash {
			key = "k-used"
		}
		as[i] = keyed(f.Next(t), key)
	}
	errs := batchOf(t, s, lead.Next(t), as, nil)
	for i, err := range errs {
		switch {
		case i == clash && !errors.Is(err, domain.ErrIdempotencyReuse):
			t.Errorf("the append reusing a key: %v, want ErrIdempotencyReuse", err)
		case i != clash && err != nil:
			t.Errorf("append %d: %v", i, err)
		}
	}
	for i, f := range fs {
		want := f.Events
		if i == clash {
			want = want[:len(want)-len(as[i].Events)]
		} else if _, found, err := s.Idempotency(context.Background(), f.Record.ID, 0, "k-"+f.Record.ID); err != nil || !found {
			t.Errorf("%s: the key was not recorded (found %v, %v)", f.Record.ID, found, err)
		}
		sameLog(t, s, f.Record.ID, want)
	}
	m, err := s.Match(context.Background(), fs[clash].Record.ID)
	if err != nil || m.Summary.Version != as[clash].Expected {
		t.Errorf("the read model of the refused append's match is at version %d (%v), want %d", m.Summary.Version, err, as[clash].Expected)
	}
}

// TestGroupCommitOneMatchTwiceInABatch: two appends to one match in one batch, the second
// continuing the first, both commit and chain: the second links to the hash the first wrote
// in the same transaction, which the store cannot have remembered yet.
func TestGroupCommitOneMatchTwiceInABatch(t *testing.T) {
	s, _ := openTest(t)
	fs := created(t, s, "twice-", 3, 2)
	lead := created(t, s, "lead-", 1, 0)[0]
	as := []referee.Append{fs[0].Next(t), fs[1].Next(t), fs[1].Next(t), fs[2].Next(t)}
	for i, err := range batchOf(t, s, lead.Next(t), as, nil) {
		if err != nil {
			t.Errorf("append %d: %v", i, err)
		}
	}
	for _, f := range fs {
		sameLog(t, s, f.Record.ID, f.Events)
	}
	m, err := s.Match(context.Background(), fs[1].Record.ID)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameSummary(t, m.Summary, fs[1].Match.Summary())
}
