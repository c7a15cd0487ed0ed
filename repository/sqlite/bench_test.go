package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/storetest"
)

// Run: go test -bench . -run '^$' ./repository/sqlite
//
// BenchmarkAppendOneEvent and BenchmarkBareInsert open the database the same way (Open, so the
// same DSN and pragmas) on the same disk (b.TempDir()); the first measures a whole store append
// of one event, the second one autocommitted INSERT of a row of the same shape and size on the
// same connection (the committer's). Both pay one durable commit at sync=full; the difference
// is what the store adds: the hand-over to the committer, the chain hash, the guarded
// read-model update.

var syncModes = []string{"full", "normal"}

// openBench opens a store with the given sync mode on a file in b's temp dir.
func openBench(b *testing.B, sync string) *Store {
	b.Helper()
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), Options{Sync: sync})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// oneEventAppends creates matches in s and returns at least n appends of exactly one real
// event each, in an order in which each is the next for its match.
func oneEventAppends(b *testing.B, s *Store, n int) []referee.Append {
	return oneEventAppendsFrom(b, s, "bench-", n)
}

// oneEventAppendsFrom is oneEventAppends with matches whose ids start with prefix.
func oneEventAppendsFrom(b *testing.B, s *Store, prefix string, n int) []referee.Append {
	b.Helper()
	var out []referee.Append
	for k := 0; len(out) < n; k++ {
		f := storetest.NewFixture(b, fmt.Sprintf("%s%d", prefix, k), storetest.Base, 1000)
		if err := f.Create(context.Background(), s); err != nil {
			b.Fatal(err)
		}
		for len(out) < n && !f.Match.Finished() {
			a := f.Next(b)
			for i, e := range a.Events {
				out = append(out, referee.Append{MatchID: a.MatchID, Expected: a.Expected + i, Events: []domain.Event{e}, Summary: a.Summary})
			}
		}
	}
	return out
}

// BenchmarkAppendOneEvent is a whole store append of one real event per op.
func BenchmarkAppendOneEvent(b *testing.B) {
	for _, mode := range syncModes {
		b.Run("sync="+mode, func(b *testing.B) {
			s := openBench(b, mode)
			appends := oneEventAppends(b, s, b.N)
			ctx := context.Background()
			b.ResetTimer()
			for i := range b.N {
				if err := s.Append(ctx, appends[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBareInsert is one autocommitted INSERT of an events-shaped row per op, the floor
// under BenchmarkAppendOneEvent.
func BenchmarkBareInsert(b *testing.B) {
	for _, mode := range syncModes {
		b.Run("sync="+mode, func(b *testing.B) {
			insert := bareInserter(b, openBench(b, mode))
			b.ResetTimer()
			for i := range b.N {
				insert(i + 1)
			}
		})
	}
}

// bareInserter creates a scratch table shaped like events in s and returns a function that
// inserts row seq into it with one autocommitted statement, compiled once, on the committer's
// connection: SQLite's own cost of a durable row, with nothing of the store around it.
func bareInserter(b *testing.B, s *Store) func(seq int) {
	b.Helper()
	s.writing.Lock()
	defer s.writing.Unlock()
	if _, err := s.wc.run(`CREATE TABLE scratch (match_id TEXT NOT NULL, seq INTEGER NOT NULL,
		type TEXT NOT NULL, data TEXT NOT NULL, at TEXT NOT NULL, prev_hash BLOB, hash BLOB NOT NULL,
		PRIMARY KEY (match_id, seq)) WITHOUT ROWID`); err != nil {
		b.Fatal(err)
	}
	// A payload and hashes of the size a real tile.played row carries.
	data := `{"seat":1,"tile":"3-5","end":"right","total":15,"points":15}`
	hash := make([]byte, 32)
	return func(seq int) {
		s.writing.Lock() // the committer is idle between appends, but say so
		defer s.writing.Unlock()
		if _, err := s.wc.run("INSERT INTO scratch VALUES (?, ?, ?, ?, ?, ?, ?)",
			"bench-0", seq, "tile.played", data, "2025-03-14T09:26:53.589793238Z", hash, hash); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendVsBareInsert alternates a store append and a bare insert on the same store
// at sync=full and reports each one's mean time and their ratio. Disk flush latency on shared
// or virtual disks drifts by several times within seconds, which makes the ratio of two
// benchmarks run one after the other unreliable; alternating exposes both to the same disk.
func BenchmarkAppendVsBareInsert(b *testing.B) {
	for _, mode := range []string{"full", "normal", "off"} {
		b.Run("sync="+mode, func(b *testing.B) {
			s := openBench(b, mode)
			appends := oneEventAppends(b, s, b.N)
			insert := bareInserter(b, s)
			ctx := context.Background()
			var tAppend, tBare time.Duration
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				if err := s.Append(ctx, appends[i]); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				insert(i + 1)
				t2 := time.Now()
				tAppend += t1.Sub(t0)
				tBare += t2.Sub(t1)
			}
			b.ReportMetric(float64(tAppend.Nanoseconds())/float64(b.N), "append-ns/op")
			b.ReportMetric(float64(tBare.Nanoseconds())/float64(b.N), "bare-ns/op")
			b.ReportMetric(float64(tAppend)/float64(tBare), "ratio")
		})
	}
}

// BenchmarkLoadAndFold500 loads a long match (a 2-player match to 1000 points, played with
// random legal moves until it has at least 500 events) and folds it with domain.Rebuild.
func BenchmarkLoadAndFold500(b *testing.B) {
	s := openBench(b, "normal")
	ctx := context.Background()
	f := storetest.NewFixture(b, "long", storetest.Base, 1000)
	if err := f.Create(ctx, s); err != nil {
		b.Fatal(err)
	}
	for len(f.Events) < 500 && !f.Match.Finished() {
		if err := s.Append(ctx, f.Next(b)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		events, err := s.Events(ctx, "long", 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := domain.Resume("long", f.Record.Seed, events); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(f.Events)), "events")
}

// BenchmarkAppend16Concurrent is 16 goroutines appending one real event at a time, each to its
// own match, so that the committer groups them: ns/op is the wall time per append, to set
// against BenchmarkBareInsert (one durable commit per row) at the same sync mode.
func BenchmarkAppend16Concurrent(b *testing.B) {
	for _, mode := range []string{"full", "off"} {
		b.Run("sync="+mode, func(b *testing.B) {
			s := openBench(b, mode)
			const movers = 16
			per := b.N/movers + 1
			queues := make([][]referee.Append, movers)
			for i := range queues {
				queues[i] = oneEventAppendsFrom(b, s, fmt.Sprintf("m%d-", i), per)
			}
			ctx := context.Background()
			b.ResetTimer()
			var wg sync.WaitGroup
			for i := range movers {
				wg.Go(func() {
					for _, a := range queues[i][:per] {
						if err := s.Append(ctx, a); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(movers*per), "ns/append")
		})
	}
}
