//go:build unix

package matchmaking

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU the process has used, user and system: on a machine shared with other
// work, the cost of the decision itself, which wall time overstates.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPairOneOfThousand is the pairing decision the matcher makes when one compatible
// seek arrives among 1,000 that wait (none accepting another): one pass over the pool, one
// table. Its time per op is the decision's CPU cost per match (docs/matchmaking.md).
func BenchmarkPairOneOfThousand(b *testing.B) {
	rule := DefaultRule()
	var seeks []Seek
	for i := range 1000 {
		f := []Format{Format2p, Format3p, Format4p, Format2v2}[i%4]
		seeks = append(seeks, Seek{
			ID: fmt.Sprintf("s%04d", i), Player: fmt.Sprintf("p%04d", i), Pool: string(f), Format: f,
			Rating: float64(i/4) * 2.5, Since: epoch, // 2.5 apart within a pool: beyond a new seek's window
		})
	}
	seeks = append(seeks, Seek{ID: "new", Player: "newcomer", Pool: "2p", Format: Format2p, Rating: 250.5, Since: epoch})
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		if got := Pair(seeks, nil, epoch, rule); len(got) != 1 {
			b.Fatalf("%d tables", len(got))
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N), "cpu-ns/match")
}

// BenchmarkPairBusyPool pairs a pool of 1,000 seeks of close ratings that mostly meet: the
// cost of a pass divided by the tables it makes is the decision's cost per match.
func BenchmarkPairBusyPool(b *testing.B) {
	rule := DefaultRule()
	var seeks []Seek
	for i := range 1000 {
		f := []Format{Format2p, Format3p, Format4p, Format2v2}[i%4]
		seeks = append(seeks, Seek{
			ID: fmt.Sprintf("s%04d", i), Player: fmt.Sprintf("p%04d", i), Pool: string(f), Format: f,
			Rating: float64(i%97) * 0.4, Since: epoch.Add(-time.Duration(i) * time.Millisecond),
		})
	}
	tables := 0
	for b.Loop() {
		tables = len(Pair(seeks, nil, epoch, rule))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*max(1, tables)), "ns/match")
}
