package simulate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// Config describes a simulation.
type Config struct {
	Matches      int      // matches to play; in duplicate mode rounded up to whole deal sequences
	Players      int      // 2, 3 or 4
	Partnerships bool     // 4 players in two sides
	Bots         []string // strategy per seat, repeated when shorter than the table
	Seed         []byte   // simulation seed; each deal sequence's seed derives from it
	Duplicate    bool     // play each deal sequence once per distinct rotation of the seats
	Workers      int      // matches played at once; 0 means 1
	Target       int      // 0 means the table's default
	Strategies   map[string]domain.Strategy
	// Store, when set, receives every match through a referee.MatchService, so the matches can
	// be replayed through the API; when nil, matches run on the aggregate and are discarded.
	Store referee.EventStore
	// Progress, when set, is called after each match from a single goroutine.
	Progress func(done, total int)
}

// Lineup is the strategy per seat before any rotation: Bots repeated to fill the table.
func (c Config) Lineup() []string {
	out := make([]string, c.Players)
	for s := range out {
		out[s] = c.Bots[s%len(c.Bots)]
	}
	return out
}

// Seatings are the lineups each deal sequence is played with: just the lineup, or in duplicate
// mode every distinct rotation of it, so each strategy plays each deal from each seat.
func (c Config) Seatings() [][]string {
	base := c.Lineup()
	if !c.Duplicate {
		return [][]string{base}
	}
	var out [][]string
	for r := range base {
		rot := make([]string, len(base))
		for s := range rot {
			rot[s] = base[(s+len(base)-r)%len(base)]
		}
		if !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, rot) }) {
			out = append(out, rot)
		}
	}
	return out
}

// Deals is the number of deal sequences: Matches divided by the seatings, rounded up.
func (c Config) Deals() int {
	n := len(c.Seatings())
	return (c.Matches + n - 1) / n
}

// DealSeed is the seed of deal sequence d: sha256("allfives/simulate/v1" || seed || d).
func DealSeed(seed []byte, d int) domain.Seed {
	h := sha256.New()
	h.Write([]byte("allfives/simulate/v1"))
	h.Write(seed)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(d))
	h.Write(n[:])
	var s domain.Seed
	h.Sum(s[:0])
	return s
}

// Check reports the first thing wrong with c: a table the rules do not allow, no matches, a
// strategy it does not have, or a bad target. Run checks too; a command calls it first so
// that a mistake is reported before anything is printed or opened.
func (c Config) Check() error {
	if _, err := domain.NewTable(c.Players, c.Partnerships); err != nil {
		return err
	}
	if c.Matches < 1 {
		return fmt.Errorf("matches must be at least 1")
	}
	if len(c.Bots) == 0 {
		return fmt.Errorf("name at least one strategy")
	}
	for _, b := range c.Bots {
		if _, ok := c.Strategies[b]; !ok {
			return fmt.Errorf("no strategy %q; choose from %s", b, strings.Join(names(c.Strategies), ", "))
		}
	}
	if c.Target != 0 {
		return domain.ValidateTarget(c.Target)
	}
	return nil
}

func names(m map[string]domain.Strategy) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Run plays the simulation and reports it. It stops at the first failure: a strategy error or
// an illegal move is a defect to fix, not a result to average.
func Run(ctx context.Context, c Config) (*Report, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	seatings := c.Seatings()
	total := c.Deals() * len(seatings)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job)
	out := make(chan result)
	workers := min(max(c.Workers, 1), total)
	var wg sync.WaitGroup
	players := make([]*player, workers)
	for w := range workers {
		players[w] = newPlayer(c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			players[w].serve(ctx, jobs, out)
		}()
	}
	go feed(ctx, jobs, total, seatings)
	go func() { wg.Wait(); close(out) }()
	start := time.Now()
	rep := newReport(c, len(seatings), workers)
	var first error
	for o := range out {
		if o.err != nil {
			if first == nil {
				first = o.err
				cancel()
			}
			continue
		}
		rep.add(o)
		if c.Progress != nil {
			c.Progress(rep.Matches, total)
		}
	}
	if first == nil {
		first = ctx.Err()
	}
	if first != nil {
		return nil, first
	}
	rep.Elapsed = time.Since(start)
	for _, p := range players {
		rep.addTimings(p.timings)
	}
	return rep, nil
}

// feed hands out match numbers; match i plays deal sequence i / seatings in seating i % seatings.
func feed(ctx context.Context, jobs chan<- job, total int, seatings [][]string) {
	defer close(jobs)
	for i := 0; i < total; i++ {
		j := job{index: i, deal: i / len(seatings), seating: seatings[i%len(seatings)]}
		select {
		case jobs <- j:
		case <-ctx.Done():
			return
		}
	}
}
