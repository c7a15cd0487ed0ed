package storetest

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/players"
)

// RunTickets checks store against the players.TicketStore contract: a ticket is taken once,
// only for its own match and before it expires, even by racing callers; issuing one clears
// the expired. open must return a new, empty store for each call.
func RunTickets(t *testing.T, open func(t *testing.T) players.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, players.TicketStore)
	}{
		{"TakeOnce", testTicketTakeOnce},
		{"OtherMatch", testTicketOtherMatch},
		{"Expired", testTicketExpired},
		{"PutClearsExpired", testTicketPutClearsExpired},
		{"TakeRace", testTicketTakeRace},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, ok := open(t).(players.TicketStore)
			if !ok {
				t.Fatal("the store does not implement players.TicketStore")
			}
			tc.fn(t, ts)
		})
	}
}

var ticketNow = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)

func putTicket(t *testing.T, s players.TicketStore, tk players.Ticket, now time.Time) []byte {
	t.Helper()
	hash := randomHash()
	if err := s.PutTicket(ctx, hash, tk, now); err != nil {
		t.Fatalf("put ticket: %v", err)
	}
	return hash
}

func takeTicket(t *testing.T, s players.TicketStore, match string, hash []byte, now time.Time) (players.Ticket, bool) {
	t.Helper()
	tk, ok, err := s.TakeTicket(ctx, match, hash, now)
	if err != nil {
		t.Fatalf("take ticket: %v", err)
	}
	return tk, ok
}

func testTicketTakeOnce(t *testing.T, s players.TicketStore) {
	for _, want := range []players.Ticket{
		{Match: "", Seat: -1, Player: "p1", Credential: randomHash(), ExpiresAt: ticketNow.Add(time.Minute)},
		{Match: "m1", Seat: 2, Player: "", Credential: randomHash(), ExpiresAt: ticketNow.Add(time.Minute)},
		{Match: "m1", Seat: 0, Player: "p2", Credential: randomHash(), ExpiresAt: ticketNow.Add(time.Second)},
	} {
		hash := putTicket(t, s, want, ticketNow)
		got, ok := takeTicket(t, s, want.Match, hash, ticketNow)
		if !ok || got.Match != want.Match || got.Seat != want.Seat || got.Player != want.Player ||
			!bytes.Equal(got.Credential, want.Credential) || !got.ExpiresAt.Equal(want.ExpiresAt) || got.ExpiresAt.Location() != time.UTC {
			t.Fatalf("took %+v %v, want %+v", got, ok, want)
		}
		if _, ok := takeTicket(t, s, want.Match, hash, ticketNow); ok {
			t.Fatalf("a ticket was taken twice: %+v", want)
		}
	}
	if _, ok := takeTicket(t, s, "", randomHash(), ticketNow); ok {
		t.Fatal("a ticket never issued was taken")
	}
}

func testTicketOtherMatch(t *testing.T, s players.TicketStore) {
	tk := players.Ticket{Match: "ma", Seat: 1, Credential: randomHash(), ExpiresAt: ticketNow.Add(time.Minute)}
	hash := putTicket(t, s, tk, ticketNow)
	for _, other := range []string{"mb", "", "MA"} {
		if _, ok := takeTicket(t, s, other, hash, ticketNow); ok {
			t.Fatalf("the ticket of ma was taken for %q", other)
		}
	}
	if _, ok := takeTicket(t, s, "ma", hash, ticketNow); !ok {
		t.Fatal("the ticket of ma, tried on other matches, no longer opens ma")
	}
}

func testTicketExpired(t *testing.T, s players.TicketStore) {
	exp := ticketNow.Add(time.Minute)
	hash := putTicket(t, s, players.Ticket{Seat: -1, Player: "p", Credential: randomHash(), ExpiresAt: exp}, ticketNow)
	if _, ok := takeTicket(t, s, "", hash, exp); ok {
		t.Fatal("a ticket was taken at the instant it expired")
	}
	if _, ok := takeTicket(t, s, "", hash, ticketNow); ok {
		t.Fatal("an expired ticket, refused once, was taken later")
	}
	hash = putTicket(t, s, players.Ticket{Seat: -1, Player: "p", Credential: randomHash(), ExpiresAt: exp}, ticketNow)
	if _, ok := takeTicket(t, s, "", hash, exp.Add(-time.Nanosecond)); !ok {
		t.Fatal("a ticket was refused a nanosecond before it expired")
	}
}

func testTicketPutClearsExpired(t *testing.T, s players.TicketStore) {
	old := putTicket(t, s, players.Ticket{Seat: -1, Player: "p", Credential: randomHash(), ExpiresAt: ticketNow.Add(time.Minute)}, ticketNow)
	keep := putTicket(t, s, players.Ticket{Seat: -1, Player: "p", Credential: randomHash(), ExpiresAt: ticketNow.Add(3 * time.Minute)}, ticketNow)
	later := ticketNow.Add(2 * time.Minute)
	putTicket(t, s, players.Ticket{Seat: -1, Player: "q", Credential: randomHash(), ExpiresAt: later.Add(time.Minute)}, later)
	// Taken with a clock from before it expired, the old ticket is gone all the same.
	if _, ok := takeTicket(t, s, "", old, ticketNow); ok {
		t.Fatal("issuing a ticket left an expired one behind")
	}
	if _, ok := takeTicket(t, s, "", keep, later); !ok {
		t.Fatal("issuing a ticket deleted one still valid")
	}
}

func testTicketTakeRace(t *testing.T, s players.TicketStore) {
	for range 5 {
		hash := putTicket(t, s, players.Ticket{Match: "m", Seat: 0, Credential: randomHash(), ExpiresAt: ticketNow.Add(time.Minute)}, ticketNow)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, ok, err := s.TakeTicket(ctx, "m", hash, ticketNow)
				if err != nil {
					t.Errorf("take: %v", err)
				}
				if ok {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("%d of 8 racing takes got the ticket, want 1", n)
		}
	}
}
