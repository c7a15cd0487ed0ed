package referee_test

import (
	"context"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// TestACredentialCheckedBeforeItsSeatChangedHands: Bob's token is checked while he holds seat
// 1 (as a stream's or a stale instance's check would be), then he leaves and Cy takes the seat,
// and the last join deals. Every read made with Bob's check shows seat 1 as a spectator sees
// it, and no command passes (docs/api-matches.md, "When a seat changes hands").
func TestACredentialCheckedBeforeItsSeatChangedHands(t *testing.T) {
	ctx := context.Background()
	store := openSQLite(t)
	svc := newService(t, store, 16)
	c := create(t, svc, seated(true, 0))
	id := c.Match.ID
	bobJoin, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 1, Name: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	bob := seatOf(t, svc, id, bobJoin.Token)
	// A second service on the same store stands for another instance that checked Bob's token
	// and then heard nothing of what followed.
	stale := newService(t, store, 16)
	bobThere := seatOf(t, stale, id, bobJoin.Token)
	if _, err := svc.Leave(ctx, id, bob, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 1, Name: "cy"}); err != nil {
		t.Fatal(err)
	}
	dealt, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 2, Name: "di"})
	if err != nil || dealt.Match.Status != domain.StatusInProgress {
		t.Fatalf("the last join: %v %+v", err, dealt.Match.Status)
	}
	version := dealt.Match.Version
	noSeat1 := func(what string, events []domain.Event) {
		t.Helper()
		for _, e := range events {
			if d, ok := e.Data.(domain.HandStarted); ok && d.Hands[1] != nil {
				t.Fatalf("%s: seq %d shows seat 1's hand %v to Bob", what, e.Seq, d.Hands[1])
			}
		}
	}
	for name, v := range map[string]domain.Viewer{"here": bob, "on the stale instance": bobThere} {
		events, _, err := svc.Events(ctx, id, v, 0, referee.MaxEventsPage)
		if err != nil || len(events) != version {
			t.Fatalf("events %s: %d %v", name, len(events), err)
		}
		noSeat1("events from 0, "+name, events)
		// Asked from beyond the leave, the events in between are still looked at.
		later, _, err := svc.Events(ctx, id, v, version-1, referee.MaxEventsPage)
		if err != nil || len(later) != 1 {
			t.Fatalf("events after %d %s: %d %v", version-1, name, len(later), err)
		}
		noSeat1("events from beyond the leave, "+name, later)
		staleEvents, _, err := stale.Events(ctx, id, v, 0, referee.MaxEventsPage)
		if err != nil {
			t.Fatal(err)
		}
		noSeat1("the stale instance's events, "+name, staleEvents)
		if view, err := svc.View(ctx, id, v); err != nil || view.You != nil {
			t.Fatalf("view %s: %+v %v", name, view.You, err)
		}
		if _, _, _, err := svc.LegalMoves(ctx, id, v); !errors.Is(err, domain.ErrUnauthorized) {
			t.Fatalf("legal moves %s: %v", name, err)
		}
		step, view, err := svc.Replay(ctx, id, v, version)
		if err != nil || view.You != nil {
			t.Fatalf("replay %s: %+v %v", name, view.You, err)
		}
		noSeat1("replay, "+name, []domain.Event{step})
		rec, err := svc.Export(ctx, id, v)
		if err != nil || rec.Match.You != nil {
			t.Fatalf("export %s: %v", name, err)
		}
		noSeat1("export, "+name, rec.Events)
		if _, err := svc.Act(ctx, id, v, referee.ActRequest{Move: domain.Draw()}); !errors.Is(err, domain.ErrUnauthorized) {
			t.Fatalf("a move %s: %v", name, err)
		}
	}
}
