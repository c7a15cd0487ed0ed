package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/matchmaking"
)

// RunSeeks checks store against the seeks.Store contract: one live seek per player and
// format, a claim all or nothing and at most once even by racing callers, settling, cancel
// and expiry only of searching seeks, and the reads. open returns a new, empty store.
func RunSeeks(t *testing.T, open func(t *testing.T) seeks.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, seeks.Store)
	}{
		{"PutAndRead", testSeekPutAndRead},
		{"OnePerFormat", testSeekOnePerFormat},
		{"ClaimAllOrNothing", testSeekClaimAllOrNothing},
		{"ClaimRace", testSeekClaimRace},
		{"Settle", testSeekSettle},
		{"CancelAndExpire", testSeekCancelAndExpire},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

var seekNow = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)

func newSeek(id, player, format string, at time.Time) seeks.Record {
	return seeks.Record{
		ID: id, Player: player, Format: matchmaking.Format(format), Rated: true, TurnSeconds: 60, Target: 0, Rating: 12.5,
		Status: seeks.StatusSearching, CreatedAt: at, ExpiresAt: at.Add(time.Minute), Seat: -1,
	}
}

func put(t *testing.T, s seeks.Store, r seeks.Record) {
	t.Helper()
	if err := s.PutSeek(context.Background(), r); err != nil {
		t.Fatalf("put %s: %v", r.ID, err)
	}
}

func read(t *testing.T, s seeks.Store, id string) seeks.Record {
	t.Helper()
	r, ok, err := s.Seek(context.Background(), id)
	if err != nil || !ok {
		t.Fatalf("seek %s: %v %v", id, ok, err)
	}
	return r
}

func testSeekPutAndRead(t *testing.T, s seeks.Store) {
	want := newSeek("s1", "ada", "3p", seekNow)
	want.Target = 150
	put(t, s, want)
	if got := read(t, s, "s1"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("read back %+v, want %+v", got, want)
	}
	if _, ok, err := s.Seek(context.Background(), "none"); ok || err != nil {
		t.Fatalf("an unknown seek: %v %v", ok, err)
	}
	put(t, s, newSeek("s0", "bob", "2p", seekNow.Add(-time.Second)))
	got, err := s.SearchingSeeks(context.Background(), 10)
	if err != nil || len(got) != 2 || got[0].ID != "s0" || got[1].ID != "s1" {
		t.Fatalf("searching, oldest first: %+v %v", got, err)
	}
	if got, err := s.SearchingSince(context.Background(), seekNow, 10); err != nil || len(got) != 1 || got[0].ID != "s1" {
		t.Fatalf("searching since the second: %+v %v", got, err)
	}
}

func testSeekOnePerFormat(t *testing.T, s seeks.Store) {
	ctx := context.Background()
	put(t, s, newSeek("a", "ada", "2p", seekNow))
	if err := s.PutSeek(ctx, newSeek("b", "ada", "2p", seekNow)); !errors.Is(err, seeks.ErrAlreadySeeking) {
		t.Fatalf("a second 2p seek: %v, want ALREADY_SEEKING", err)
	}
	put(t, s, newSeek("c", "ada", "4p", seekNow)) // another format
	if _, _, err := s.CancelSeek(ctx, "a", seekNow, seeks.ReasonCancelled); err != nil {
		t.Fatal(err)
	}
	put(t, s, newSeek("d", "ada", "2p", seekNow)) // once the first ended
}

func testSeekClaimAllOrNothing(t *testing.T, s seeks.Store) {
	ctx := context.Background()
	put(t, s, newSeek("a", "ada", "2p", seekNow))
	put(t, s, newSeek("b", "bob", "2p", seekNow))
	if _, _, err := s.CancelSeek(ctx, "b", seekNow, seeks.ReasonCancelled); err != nil {
		t.Fatal(err)
	}
	ok, err := s.ClaimSeeks(ctx, "m1", []seeks.Claim{{Seek: "a", Seat: 0}, {Seek: "b", Seat: 1}}, seekNow)
	if err != nil || ok {
		t.Fatalf("a claim of a cancelled seek: %v %v", ok, err)
	}
	if got := read(t, s, "a"); got.Status != seeks.StatusSearching || got.Match != "" {
		t.Fatalf("the lost claim changed %+v", got)
	}
}

func testSeekClaimRace(t *testing.T, s seeks.Store) {
	ctx := context.Background()
	for i := range 3 {
		put(t, s, newSeek(fmt.Sprint("s", i), fmt.Sprint("p", i), "2p", seekNow))
	}
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			// Every claim holds s1; each pairs it with s0 or s2.
			other := []string{"s0", "s2"}[i%2]
			ok, err := s.ClaimSeeks(ctx, fmt.Sprint("m", i), []seeks.Claim{{Seek: "s1", Seat: 0}, {Seek: other, Seat: 1}}, seekNow)
			if err != nil {
				t.Error(err)
			}
			if ok {
				won.Add(1)
			}
		})
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d claims of one seek won", won.Load())
	}
	got := read(t, s, "s1")
	if got.Status != seeks.StatusPairing || got.Match == "" || got.Seat != 0 || !got.EndedAt.Equal(seekNow) {
		t.Fatalf("claimed seek %+v", got)
	}
	if id, ok, err := s.SeekOfMatch(ctx, "p1", got.Match); err != nil || !ok || id != "s1" {
		t.Fatalf("seek of match: %q %v %v", id, ok, err)
	}
}

func testSeekSettle(t *testing.T, s seeks.Store) {
	ctx := context.Background()
	put(t, s, newSeek("a", "ada", "2p", seekNow))
	put(t, s, newSeek("b", "bob", "2p", seekNow))
	claim := func(m string) {
		if ok, err := s.ClaimSeeks(ctx, m, []seeks.Claim{{Seek: "a", Seat: 0}, {Seek: "b", Seat: 1}}, seekNow); err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
	}
	claim("m1")
	if got, err := s.PairingSince(ctx, seekNow.Add(-time.Second)); err != nil || len(got) != 0 {
		t.Fatalf("pairing since before the claim: %+v %v", got, err)
	}
	if got, err := s.PairingSince(ctx, seekNow); err != nil || len(got) != 2 {
		t.Fatalf("pairing since the claim: %+v %v", got, err)
	}
	if err := s.SettleSeeks(ctx, "m1", false); err != nil {
		t.Fatal(err)
	}
	if got := read(t, s, "b"); got.Status != seeks.StatusSearching || got.Match != "" || got.Seat != -1 || !got.EndedAt.IsZero() {
		t.Fatalf("a failed match's seek %+v", got)
	}
	claim("m2")
	if err := s.SettleSeeks(ctx, "m2", true); err != nil {
		t.Fatal(err)
	}
	if got := read(t, s, "b"); got.Status != seeks.StatusMatched || got.Match != "m2" || got.Seat != 1 {
		t.Fatalf("matched seek %+v", got)
	}
	// A matched seek is neither cancelled nor claimed again.
	if got, _, err := s.CancelSeek(ctx, "b", seekNow, seeks.ReasonCancelled); err != nil || got.Status != seeks.StatusMatched {
		t.Fatalf("cancel of a matched seek: %+v %v", got, err)
	}
	put(t, s, newSeek("a2", "ada", "2p", seekNow)) // ada may seek again
}

func testSeekCancelAndExpire(t *testing.T, s seeks.Store) {
	ctx := context.Background()
	put(t, s, newSeek("a", "ada", "2p", seekNow))
	put(t, s, newSeek("b", "ada", "3p", seekNow))
	put(t, s, newSeek("c", "bob", "2p", seekNow.Add(-2*time.Minute)))
	if n, err := s.CancelSeeksOf(ctx, "ada", seekNow, seeks.ReasonKeyRotated); err != nil || n != 2 {
		t.Fatalf("cancel ada's: %d %v", n, err)
	}
	if got := read(t, s, "b"); got.Status != seeks.StatusCancelled || got.Reason != seeks.ReasonKeyRotated {
		t.Fatalf("rotated %+v", got)
	}
	if n, err := s.ExpireSeeks(ctx, seekNow); err != nil || n != 1 {
		t.Fatalf("expire: %d %v", n, err)
	}
	if got := read(t, s, "c"); got.Status != seeks.StatusExpired || !got.EndedAt.Equal(got.ExpiresAt) {
		t.Fatalf("expired %+v", got)
	}
	if got, err := s.SearchingSeeks(ctx, 10); err != nil || len(got) != 0 {
		t.Fatalf("still searching: %+v %v", got, err)
	}
}
