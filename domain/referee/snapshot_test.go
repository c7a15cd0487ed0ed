package referee

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

var t0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// playedLog is the log of a two-seat match after moves first-legal moves.
func playedLog(tb testing.TB, id string, moves int) (domain.Seed, []domain.Event) {
	tb.Helper()
	seed := domain.Seed(sha256.Sum256([]byte(id)))
	players := []domain.PlayerInfo{{Seat: 0, Name: "ann", Kind: domain.Human}, {Seat: 1, Name: "bob", Kind: domain.Human}}
	events, err := domain.Start(domain.MatchSpec{Players: players, Target: 1000}, seed, t0)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := newTable(id, seed, events)
	if err != nil {
		tb.Fatal(err)
	}
	for range moves {
		if t.match.Finished() {
			break
		}
		seat := t.match.Turn()
		more, err := t.play(seat, t.match.LegalMoves(seat)[0].Move(), t0)
		if err != nil {
			tb.Fatal(err)
		}
		events = append(events, more...)
	}
	return seed, events
}

// TestCacheBoundedByMemory: the cache keeps the most recently used entries that fit in its
// byte budget, and its total follows the entries' estimates as they grow and leave.
func TestCacheBoundedByMemory(t *testing.T) {
	c := newMatchCache(0, 3*entryBytes)
	for i := range 5 {
		c.unpin(c.put(cachedMatch(fmt.Sprintf("m%d", i))))
	}
	if c.order.Len() != 3 || c.bytes.Load() != 3*entryBytes {
		t.Fatalf("%d entries, %d bytes; want 3 and %d", c.order.Len(), c.bytes.Load(), 3*entryBytes)
	}
	for _, id := range []string{"m2", "m3", "m4"} {
		if c.byID[id] == nil {
			t.Fatalf("%s, among the most recent, was evicted", id)
		}
	}
	e := c.get("m4")
	e.remember(&IdempotencyRecord{Key: "k"})
	if want := int64(3*entryBytes + keyBytes + 1); c.bytes.Load() != want {
		t.Fatalf("after a key: %d bytes, want %d", c.bytes.Load(), want)
	}
	c.unpin(e) // now over budget: the least recent goes
	if c.order.Len() != 2 || c.byID["m2"] != nil {
		t.Fatalf("over budget after growth: %d entries", c.order.Len())
	}
}

// TestEntrySizeEstimate: the estimate the cache is bounded by is within a factor of two of
// the heap a loaded entry really holds, for matches early and late in a hand.
func TestEntrySizeEstimate(t *testing.T) {
	for _, moves := range []int{2, 20} {
		const n = 200
		// The logs are held encoded, as a store holds them, and decoded in the measured
		// part, as a cache miss does: the payloads the entry keeps are counted.
		logs := make([][]domain.Event, n)
		payloads := make([][][]byte, n)
		seeds := make([]domain.Seed, n)
		for i := range logs {
			seeds[i], logs[i] = playedLog(t, fmt.Sprintf("m%d", i), moves)
			for _, e := range logs[i] {
				b, err := domain.EncodeData(e.Data)
				if err != nil {
					t.Fatal(err)
				}
				payloads[i] = append(payloads[i], b)
			}
		}
		entries := make([]*entry, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var estimate int64
		for i := range entries {
			decoded := make([]domain.Event, len(logs[i]))
			for k, e := range logs[i] {
				data, err := domain.DecodeEventData(e.Type, payloads[i][k])
				if err != nil {
					t.Fatal(err)
				}
				decoded[k] = domain.Event{Seq: e.Seq, Type: e.Type, At: e.At, Data: data}
			}
			tb, err := newTable(fmt.Sprintf("m%d", i), seeds[i], decoded)
			if err != nil {
				t.Fatal(err)
			}
			e := &entry{record: MatchRecord{ID: tb.match.ID(), Seats: []SeatRecord{{Seat: 0, Name: "ann", TokenHash: make([]byte, 32)}, {Seat: 1, Name: "bob", TokenHash: make([]byte, 32)}}}}
			e.set(tb)
			entries[i] = e
			estimate += e.size.Load()
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		real := float64(after.HeapAlloc-before.HeapAlloc) / n
		est := float64(estimate) / n
		t.Logf("%d moves: estimate %.0f bytes, heap %.0f bytes per entry", moves, est, real)
		if est < real/2 || est > real*2 {
			t.Errorf("%d moves: estimate %.0f bytes per entry, measured %.0f", moves, est, real)
		}
		runtime.KeepAlive(entries)
		runtime.KeepAlive(logs)
		runtime.KeepAlive(payloads)
	}
}
