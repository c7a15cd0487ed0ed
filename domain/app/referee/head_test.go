package referee_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/repository/memstore"
)

// headed is a memstore shared as a PostgreSQL database is, so it implements HeadReader. It
// counts the head checks and records each Events call's after, and can be told to fail.
type headed struct {
	*memstore.Store
	mu     sync.Mutex
	heads  int
	afters []int
	down   bool // every call fails with ErrStoreUnavailable
	// lose, when set, makes the next Append commit and then report the connection lost, as a
	// COMMIT whose answer never arrived.
	lose bool
}

func (h *headed) Head(ctx context.Context, id string) (int, error) {
	h.mu.Lock()
	h.heads++
	down := h.down
	h.mu.Unlock()
	if down {
		return 0, fmt.Errorf("head of %s: %w", id, storeerr.ErrStoreUnavailable)
	}
	m, err := h.Store.Match(ctx, id)
	return m.Summary.Version, err
}

func (h *headed) Events(ctx context.Context, id string, after, limit int) ([]domain.Event, error) {
	h.mu.Lock()
	h.afters = append(h.afters, after)
	h.mu.Unlock()
	return h.Store.Events(ctx, id, after, limit)
}

func (h *headed) Append(ctx context.Context, a referee.Append) error {
	h.mu.Lock()
	lose := h.lose
	h.lose = false
	h.mu.Unlock()
	if err := h.Store.Append(ctx, a); err != nil || !lose {
		return err
	}
	return fmt.Errorf("commit: %w", storeerr.ErrStoreUnavailable)
}

func (h *headed) counts() (heads int, afters []int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	heads, afters = h.heads, h.afters
	h.heads, h.afters = 0, nil
	return heads, afters
}

// TestReadYourWritesAcrossServices: two services on one shared store that hear nothing of each
// other's appends. After a move through a, every read through b shows it: b's copy is checked
// against the store's head, and caught up from the events after it, not reloaded whole.
func TestReadYourWritesAcrossServices(t *testing.T) {
	ctx := context.Background()
	store := &headed{Store: memstore.New()}
	a, b := newService(t, store, 16), newService(t, store, 16)
	c := create(t, a, twoHumans(vectorSeed))
	id := c.Match.ID
	seat0, seat1 := seatOf(t, a, id, c.Tokens[0].Token), seatOf(t, a, id, c.Tokens[1].Token)
	before := versionOf(t, b, id) // b caches the match
	for range 6 {
		mover := seat0
		if v, _ := a.View(ctx, id, domain.Spectator()); v.Hand.Turn == 1 {
			mover = seat1
		}
		_, mv := legalFor(t, a, id, mover)
		res, err := a.Act(ctx, id, mover, referee.ActRequest{Move: mv})
		if err != nil {
			t.Fatal(err)
		}
		store.counts()
		if got := versionOf(t, b, id); got != res.Match.Version {
			t.Fatalf("b shows version %d after a acknowledged %d", got, res.Match.Version)
		}
		heads, afters := store.counts()
		if heads != 1 || !slices.Equal(afters, []int{before}) {
			t.Fatalf("b's read made %d head checks and read events after %v, want 1 check and the events after %d", heads, afters, before)
		}
		before = res.Match.Version
		// The next seat's legal moves through b are those of the stored match.
		next := seat0
		if v, _ := b.View(ctx, id, domain.Spectator()); v.Hand.Turn == 1 {
			next = seat1
		}
		_, version, moves, err := b.LegalMoves(ctx, id, next)
		if err != nil || version != res.Match.Version || len(moves) == 0 {
			t.Fatalf("b's legal moves for the seat to move: version %d, %d moves, %v", version, len(moves), err)
		}
		store.counts()
	}
	// A current copy costs one head check and no read of the log.
	versionOf(t, b, id)
	if heads, afters := store.counts(); heads != 1 || len(afters) != 0 {
		t.Fatalf("a current copy: %d head checks, events read after %v", heads, afters)
	}
}

// TestOneHeadCheckPerRequest: the reads of one request (the seat's authentication, then its
// state) share one head check; without the request's memo each read checks.
func TestOneHeadCheckPerRequest(t *testing.T) {
	store := &headed{Store: memstore.New()}
	svc := newService(t, store, 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	for _, memo := range []bool{true, false} {
		ctx := context.Background()
		if memo {
			ctx = referee.OneHeadCheck(ctx)
		}
		store.counts()
		v, err := svc.Authenticate(ctx, id, c.Tokens[0].Token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.View(ctx, id, v); err != nil {
			t.Fatal(err)
		}
		want := 2
		if memo {
			want = 1
		}
		if heads, _ := store.counts(); heads != want {
			t.Fatalf("memo %v: %d head checks, want %d", memo, heads, want)
		}
	}
}

// TestStoreUnavailable: while the store cannot be reached every read and move fails with
// ErrStoreUnavailable (503), never a refusal decided on the cached copy; afterwards the
// service serves again by itself.
func TestStoreUnavailable(t *testing.T) {
	ctx := context.Background()
	store := &headed{Store: memstore.New()}
	svc := newService(t, store, 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	seat1 := seatOf(t, svc, id, c.Tokens[1].Token)
	store.down = true
	if _, err := svc.View(ctx, id, domain.Spectator()); !errors.Is(err, storeerr.ErrStoreUnavailable) {
		t.Fatalf("view while down: %v", err)
	}
	// Out of turn: the cached copy would refuse it NOT_YOUR_TURN, but it cannot be confirmed.
	if _, err := svc.Act(ctx, id, seat1, referee.ActRequest{Move: domain.Draw()}); !errors.Is(err, storeerr.ErrStoreUnavailable) {
		t.Fatalf("a move while down: %v", err)
	}
	store.down = false
	if _, err := svc.Act(ctx, id, seat1, referee.ActRequest{Move: domain.Draw()}); !errors.Is(err, domain.ErrNotYourTurn) {
		t.Fatalf("the same move once the store is back: %v", err)
	}
}

// TestUnknownCommitOutcome: a move whose commit was stored but whose answer was lost is not
// reported as done; its retry with the same idempotency key gets the stored answer and stores
// nothing more, and a retry of a move that was not stored moves.
func TestUnknownCommitOutcome(t *testing.T) {
	ctx := context.Background()
	store := &headed{Store: memstore.New()}
	svc := newService(t, store, 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	seat0 := seatOf(t, svc, id, c.Tokens[0].Token)
	_, mv := legalFor(t, svc, id, seat0)
	req := referee.ActRequest{Move: mv, IdempotencyKey: "k-1"}
	store.lose = true
	if _, err := svc.Act(ctx, id, seat0, req); !errors.Is(err, storeerr.ErrStoreUnavailable) {
		t.Fatalf("a commit whose answer was lost: %v, want ErrStoreUnavailable", err)
	}
	stored, _ := store.Match(ctx, id)
	res, err := svc.Act(ctx, id, seat0, req)
	if err != nil || !res.Replayed || res.Match.Version != stored.Summary.Version {
		t.Fatalf("the retry: replayed %v at version %d, %v; want the stored answer at %d", res.Replayed, res.Match.Version, err, stored.Summary.Version)
	}
	if after, _ := store.Match(ctx, id); after.Summary.Version != stored.Summary.Version {
		t.Fatalf("the retry stored more: version %d, want %d", after.Summary.Version, stored.Summary.Version)
	}
}
