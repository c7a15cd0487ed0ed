package referee_test

import (
	"context"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

// legalFor is the first legal move of v's seat, as svc sees the match.
func legalFor(t *testing.T, svc *referee.MatchService, id string, v domain.Viewer) (int, domain.Move) {
	t.Helper()
	_, version, moves, err := svc.LegalMoves(context.Background(), id, v)
	if err != nil || len(moves) == 0 {
		t.Fatalf("legal moves: %v %v", moves, err)
	}
	return version, moves[0].Move()
}

func versionOf(t *testing.T, svc *referee.MatchService, id string) int {
	t.Helper()
	v, err := svc.View(context.Background(), id, domain.Spectator())
	if err != nil {
		t.Fatal(err)
	}
	return v.Version
}

// TestStaleCopies: two services on one store, as two instances sharing a database, hearing
// nothing of each other. Each move reaches a service whose cached copy is behind; none is
// refused for it, and a stale If-Match is refused with the stored version.
func TestStaleCopies(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	a, b := newService(t, store, 16), newService(t, store, 16)
	c := create(t, a, twoHumans(vectorSeed))
	id := c.Match.ID
	seat0, seat1 := seatOf(t, a, id, c.Tokens[0].Token), seatOf(t, a, id, c.Tokens[1].Token)
	versionOf(t, b, id) // b caches the match at version 2

	if _, err := a.Act(ctx, id, seat0, referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left)}); err != nil {
		t.Fatal(err)
	}
	// An If-Match ahead of b's copy: the client has seen what b has not.
	version, mv := legalFor(t, a, id, seat1)
	if _, err := b.Act(ctx, id, seat1, referee.ActRequest{Move: mv, ExpectedVersion: version}); err != nil {
		t.Fatalf("If-Match %d on a copy behind it: %v", version, err)
	}
	// No If-Match, and a's copy says it is not seat 0's turn: the refusal is checked first.
	_, mv = legalFor(t, b, id, seat0)
	if _, err := a.Act(ctx, id, seat0, referee.ActRequest{Move: mv}); err != nil {
		t.Fatalf("a move a stale copy would refuse: %v", err)
	}
	// A stale If-Match on b, whose copy is behind too: the conflict names the stored version.
	stored, err := store.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	_, mv = legalFor(t, a, id, seat1)
	var vc *domain.VersionConflictError
	_, err = b.Act(ctx, id, seat1, referee.ActRequest{Move: mv, ExpectedVersion: stored.Summary.Version - 1})
	if !errors.As(err, &vc) || vc.Current != stored.Summary.Version {
		t.Fatalf("stale If-Match: %v, want a conflict at version %d", err, stored.Summary.Version)
	}
	// A real refusal stays one after the check: seat 0 out of turn, on a current copy.
	if _, err := b.Act(ctx, id, seat0, referee.ActRequest{Move: domain.Draw()}); !errors.Is(err, domain.ErrNotYourTurn) {
		t.Fatalf("out of turn: %v", err)
	}
	if got := versionOf(t, b, id); got != stored.Summary.Version {
		t.Fatalf("b shows version %d after the refusals, want %d", got, stored.Summary.Version)
	}
}

// TestAppendedDropsAndWakes: told of another instance's append, a service drops its older
// copy and wakes the match's followers; told that announcements may have been missed, it drops
// every copy and wakes every follower.
func TestAppendedDropsAndWakes(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	a, b := newService(t, store, 16), newService(t, store, 16)
	c := create(t, a, twoHumans(vectorSeed))
	id := c.Match.ID
	seat0 := seatOf(t, a, id, c.Tokens[0].Token)
	versionOf(t, b, id)
	wake, stop := b.Watch(id)
	defer stop()

	res, err := a.Act(ctx, id, seat0, referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left)})
	if err != nil {
		t.Fatal(err)
	}
	b.Appended(id, res.Match.Version)
	<-wake // Appended wakes before it returns, or from the goroutine it starts when the copy is busy
	if got := versionOf(t, b, id); got != res.Match.Version {
		t.Fatalf("b shows version %d after hearing of %d", got, res.Match.Version)
	}
	// An announcement b already has changes nothing but still wakes.
	b.Appended(id, res.Match.Version)
	<-wake

	_, mv := legalFor(t, b, id, seatOf(t, a, id, c.Tokens[1].Token))
	res, err = a.Act(ctx, id, seatOf(t, a, id, c.Tokens[1].Token), referee.ActRequest{Move: mv})
	if err != nil {
		t.Fatal(err)
	}
	b.Appended("", 0)
	<-wake
	if got := versionOf(t, b, id); got != res.Match.Version {
		t.Fatalf("b shows version %d after a possible gap, want %d", got, res.Match.Version)
	}
}
