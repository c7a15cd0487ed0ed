package referee

import (
	"context"
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
	g, err := newGame(id, seed, events)
	if err != nil {
		tb.Fatal(err)
	}
	for range moves {
		if g.match.Finished() {
			break
		}
		seat := g.match.Turn()
		more, err := g.play(seat, g.match.LegalMoves(seat)[0].Move(), t0)
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
			g, err := newGame(fmt.Sprintf("m%d", i), seeds[i], decoded)
			if err != nil {
				t.Fatal(err)
			}
			e := &entry{record: MatchRecord{ID: g.match.ID(), Seats: []SeatRecord{{Seat: 0, Name: "ann", TokenHash: make([]byte, 32)}, {Seat: 1, Name: "bob", TokenHash: make([]byte, 32)}}}}
			e.set(g)
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

// TestEncodedViewsPerVersionAndViewer: a view is encoded once per version and viewer, each
// viewer gets its own bytes, an opened viewer's view is never kept, a move starts afresh, and
// the cache's byte total counts the kept views and lets them go.
func TestEncodedViewsPerVersionAndViewer(t *testing.T) {
	seed, events := playedLog(t, "m", 3)
	g, err := newGame("m", seed, events)
	if err != nil {
		t.Fatal(err)
	}
	svc := &MatchService{cache: newMatchCache(0, 1<<30)}
	e := &entry{}
	e.set(g)
	svc.cache.unpin(svc.cache.put(e))
	base := svc.cache.bytes.Load()
	calls := 0
	enc := func(v domain.MatchView) ([]byte, error) {
		calls++
		you := -1
		if v.You != nil {
			you = v.You.Seat
		}
		return fmt.Appendf(nil, "%d/%d/%d", v.Version, you, calls), nil
	}
	read := func(v domain.Viewer) string {
		t.Helper()
		b, version, err := svc.EncodedView(context.Background(), "m", v, enc)
		if err != nil || version != e.match.Version() {
			t.Fatalf("encoded view: version %d, %v", version, err)
		}
		return string(b)
	}
	spec, s0, s1 := read(domain.Spectator()), read(domain.SeatViewer(0)), read(domain.SeatViewer(1))
	if spec == s0 || s0 == s1 || calls != 3 {
		t.Fatalf("views %q %q %q after %d encodings", spec, s0, s1, calls)
	}
	if read(domain.Spectator()) != spec || read(domain.SeatViewer(0)) != s0 || calls != 3 {
		t.Fatalf("an unchanged match was encoded again (%d encodings)", calls)
	}
	read(domain.SeatViewer(0).Opened())
	read(domain.SeatViewer(0).Opened())
	if calls != 5 {
		t.Fatalf("an opened viewer's view was kept (%d encodings)", calls)
	}
	kept := int64(len(spec)+len(s0)+len(s1)) + 3*viewOverhead
	if got := svc.cache.bytes.Load(); got != base+kept {
		t.Fatalf("cache total %d, want %d + %d for the kept views", got, base, kept)
	}

	e.mu.Lock()
	work := e.working()
	seat := work.match.Turn()
	if _, err := work.play(seat, work.match.LegalMoves(seat)[0].Move(), t0); err != nil {
		t.Fatal(err)
	}
	e.set(work)
	e.mu.Unlock()
	if got := svc.cache.bytes.Load(); got != e.size.Load() {
		t.Fatalf("after a move the total is %d, want the entry's %d: the old views stayed counted", got, e.size.Load())
	}
	if read(domain.SeatViewer(0)) == s0 || calls != 6 {
		t.Fatalf("after a move the old view was served (%d encodings)", calls)
	}
	svc.cache.drop(e)
	if got := svc.cache.bytes.Load(); got != 0 {
		t.Fatalf("an empty cache counts %d bytes", got)
	}
}
