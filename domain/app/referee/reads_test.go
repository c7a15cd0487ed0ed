package referee_test

import (
	"context"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

// stallingStore holds every Append until released, as a slow disk would, and counts the
// idempotency reads that reach it.
type stallingStore struct {
	referee.EventStore
	stall    bool
	entered  chan struct{}
	release  chan struct{}
	mu       sync.Mutex
	keyReads int
}

func (s *stallingStore) Append(ctx context.Context, a referee.Append) error {
	if s.stall {
		close(s.entered)
		<-s.release
	}
	return s.EventStore.Append(ctx, a)
}

func (s *stallingStore) Idempotency(ctx context.Context, id string, seat int, key string) (referee.IdempotencyRecord, bool, error) {
	s.mu.Lock()
	s.keyReads++
	s.mu.Unlock()
	return s.EventStore.Idempotency(ctx, id, seat, key)
}

func humansMatch(t *testing.T, store referee.EventStore) (*referee.MatchService, string, domain.Viewer) {
	t.Helper()
	svc := newService(t, store, 0)
	c := create(t, svc, twoHumans(vectorSeed))
	return svc, c.Match.ID, seatOf(t, svc, c.Match.ID, c.Tokens[0].Token)
}

// TestReadsDoNotWaitForAMove: while a move waits for the store (holding the match's lock),
// the state, the legal moves and the events answer at once, with the state before the move;
// once the move is stored, reads see it.
func TestReadsDoNotWaitForAMove(t *testing.T) {
	ctx := context.Background()
	store := &stallingStore{EventStore: memstore.New(), entered: make(chan struct{}), release: make(chan struct{})}
	svc, id, seat := humansMatch(t, store)
	before, err := svc.View(ctx, id, seat)
	if err != nil {
		t.Fatal(err)
	}
	store.stall = true
	moved := make(chan error, 1)
	go func() {
		_, err := svc.Act(ctx, id, seat, referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left)})
		moved <- err
	}()
	<-store.entered // the move holds the lock and waits for the store
	v, err := svc.View(ctx, id, seat)
	if err != nil || v.Version != before.Version {
		t.Fatalf("view during a move: version %d (%v), want %d", v.Version, err, before.Version)
	}
	if _, version, moves, err := svc.LegalMoves(ctx, id, seat); err != nil || version != before.Version || len(moves) == 0 {
		t.Fatalf("legal moves during a move: version %d, %d moves, %v", version, len(moves), err)
	}
	if evs, _, err := svc.Events(ctx, id, seat, 0, 100); err != nil || len(evs) != before.Version {
		t.Fatalf("events during a move: %d, %v", len(evs), err)
	}
	close(store.release)
	if err := <-moved; err != nil {
		t.Fatal(err)
	}
	if v, err := svc.View(ctx, id, seat); err != nil || v.Version <= before.Version {
		t.Fatalf("view after the move: version %d, %v", v.Version, err)
	}
}

// TestAuthenticateDoesNotWaitForAMove: every authenticated read starts with Authenticate,
// so it too must answer while a move waits for the store, for a seat and a spectator alike.
func TestAuthenticateDoesNotWaitForAMove(t *testing.T) {
	ctx := context.Background()
	store := &stallingStore{EventStore: memstore.New(), entered: make(chan struct{}), release: make(chan struct{})}
	svc := newService(t, store, 0)
	c := create(t, svc, twoHumans(vectorSeed))
	id, token := c.Match.ID, c.Tokens[0].Token
	store.stall = true
	moved := make(chan error, 1)
	go func() {
		_, err := svc.Act(ctx, id, domain.SeatViewer(0), referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left)})
		moved <- err
	}()
	<-store.entered // the move holds the lock and waits for the store
	if v, err := svc.Authenticate(ctx, id, token); err != nil || v.Unbound() != domain.SeatViewer(0) {
		t.Fatalf("authenticate during a move: %+v, %v", v, err)
	}
	if v, err := svc.Authenticate(ctx, id, ""); err != nil || v != domain.Spectator() {
		t.Fatalf("spectator during a move: %+v, %v", v, err)
	}
	close(store.release)
	if err := <-moved; err != nil {
		t.Fatal(err)
	}
}

// TestIdempotencyKeysInMemory: a keyed move on a match created by this service, and its
// retry, never read the store for the key; a service that loaded the match from the store
// reads it once and answers the retry alike.
func TestIdempotencyKeysInMemory(t *testing.T) {
	ctx := context.Background()
	store := &stallingStore{EventStore: memstore.New()}
	svc, id, seat := humansMatch(t, store)
	req := referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left), IdempotencyKey: "k1"}
	first, err := svc.Act(ctx, id, seat, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := svc.Act(ctx, id, seat, req)
	if err != nil || !again.Replayed || again.Match.Version != first.Match.Version {
		t.Fatalf("retry: replayed %v at %d, %v", again.Replayed, again.Match.Version, err)
	}
	if store.keyReads != 0 {
		t.Errorf("%d idempotency reads reached the store for a match created here", store.keyReads)
	}
	other := newService(t, store, 0)
	again, err = other.Act(ctx, id, seat, req)
	if err != nil || !again.Replayed || again.Match.Version != first.Match.Version {
		t.Fatalf("retry on a loaded match: replayed %v at %d, %v", again.Replayed, again.Match.Version, err)
	}
	if store.keyReads != 1 {
		t.Errorf("%d idempotency reads for a loaded match, want 1", store.keyReads)
	}
}

// TestKeyRecordedByAnotherProcess: a keyed move made through a second service on the same
// store (another process), retried with the same key and If-Match through the first, whose
// cached copy never heard of the key, answers the first answer, not a version conflict.
func TestKeyRecordedByAnotherProcess(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	a, id, seat := humansMatch(t, store)
	b := newService(t, store, 0)
	before, err := a.View(ctx, id, seat)
	if err != nil {
		t.Fatal(err)
	}
	req := referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left), IdempotencyKey: "k1", ExpectedVersion: before.Version}
	first, err := b.Act(ctx, id, seat, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := a.Act(ctx, id, seat, req)
	if err != nil || !again.Replayed || again.Match.Version != first.Match.Version {
		t.Fatalf("retry through the other process: replayed %v at %d, %v", again.Replayed, again.Match.Version, err)
	}
}
