package bot

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// This file is the duplicate-match harness of the strength benchmarks: two players meet on the
// same two-player deal sequences twice, once from each seat, so the luck of the deal cancels
// and what is left is skill. It plays on the aggregate (domain.Match), the rules the referee
// enforces, and asks each player only for its own seat's view.

// chooser is what the harness asks for a move: any strategy, or the reference.
type chooser interface {
	Choose(ctx context.Context, v domain.SeatView) (domain.Move, error)
}

// duelResult is what a duel found for its first player, a.
type duelResult struct {
	matches int
	wins    int
	margin  int           // a's final score minus b's, summed over the matches
	played  []matchRecord // each match, for the variance-reduced estimate (estimate_test.go)
}

// rate is a's share of the matches won.
func (r duelResult) rate() float64 { return float64(r.wins) / float64(max(r.matches, 1)) }

// interval is the 95% Wilson score interval of a's win rate.
func (r duelResult) interval() (lo, hi float64) { return wilson(r.wins, r.matches, 1.959964) }

// String is the line the benchmarks log: wins of matches, the rate and its interval.
func (r duelResult) String() string {
	lo, hi := r.interval()
	return fmt.Sprintf("%d of %d matches, %.1f%% [%.1f, %.1f], mean margin %+.1f",
		r.wins, r.matches, 100*r.rate(), 100*lo, 100*hi, float64(r.margin)/float64(max(r.matches, 1)))
}

// report puts the result on the benchmark's line and in its log.
func (r duelResult) report(b *testing.B, label string) {
	lo, hi := r.interval()
	b.ReportMetric(100*r.rate(), "win%")
	b.ReportMetric(100*lo, "lo95%")
	b.ReportMetric(100*hi, "hi95%")
	b.ReportMetric(float64(r.matches), "matches")
	b.Logf("%s: %s", label, r)
	r.reportEstimate(b)
}

// wilson is the Wilson score interval for k successes in n trials at normal quantile z.
func wilson(k, n int, z float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(mid-half, 0), min(mid+half, 1)
}

// duelSeed is the seed of deal sequence d of the duel named name.
func duelSeed(name string, d int) domain.Seed {
	h := sha256.New()
	fmt.Fprintf(h, "allfives/duel/v1/%s/", name)
	binary.Write(h, binary.BigEndian, uint64(d))
	var s domain.Seed
	h.Sum(s[:0])
	return s
}

// duel plays deals two-player deal sequences of a against b, each twice with the seats
// swapped, on as many goroutines as GOMAXPROCS allows (the result does not depend on it).
// The deals are named by name, so two duels of the same name play the same deals.
func duel(tb testing.TB, name string, a, b chooser, deals int) duelResult {
	tb.Helper()
	return duelTo(tb, name, a, b, deals, 0)
}

// duelTo is duel with matches to target points (0: the table's default, 250).
func duelTo(tb testing.TB, name string, a, b chooser, deals, target int) duelResult {
	tb.Helper()
	var (
		mu   sync.Mutex
		res  duelResult
		fail error
		wg   sync.WaitGroup
	)
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range next {
				for swap := 0; swap < 2; swap++ {
					seats := [2]chooser{a, b}
					if swap == 1 {
						seats = [2]chooser{b, a}
					}
					scores, winner, luck, err := playDuel(duelSeed(name, d), seats, target)
					if swap == 1 { // the luck is seat 0's; a's is the opposite when a sits at seat 1
						luck = -luck
					}
					mu.Lock()
					if err != nil && fail == nil {
						fail = fmt.Errorf("deal %d, swap %d: %w", d, swap, err)
					}
					res.matches++
					won, margin := 0, 0
					if err == nil {
						if winner == swap { // a sits at seat swap
							won = 1
						}
						margin = scores[swap] - scores[1-swap]
					}
					res.wins += won
					res.margin += margin
					res.played = append(res.played, matchRecord{deal: d, won: won, luck: luck})
					if duelLog != nil {
						fmt.Fprintf(duelLog, "%d %d %d %d %.4f\n", d, swap, won, margin, luck)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for d := range deals {
		next <- dealOffset + d
	}
	close(next)
	wg.Wait()
	if fail != nil {
		tb.Fatal(fail)
	}
	return res
}

// maxDuelSteps bounds a match's moves: far above any real match, it turns a bug into a failure
// rather than a hang.
const maxDuelSteps = 100000

// playDuel plays one two-player match of seats[0] against seats[1] on seed's deals, and
// returns the final scores, the winning seat and the luck of the match's deals to seat 0
// (dealLuck, summed over its hands).
func playDuel(seed domain.Seed, seats [2]chooser, target int) (scores []int, winner int, luck float64, err error) {
	at := time.Unix(0, 0).UTC()
	spec := domain.MatchSpec{Seeded: true, Target: target}
	for s := range seats {
		spec.Players = append(spec.Players, domain.PlayerInfo{Seat: s, Name: fmt.Sprint("p", s), Kind: domain.Bot, Bot: NameRandom})
	}
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		return nil, 0, 0, err
	}
	m, err := domain.Resume("duel", seed, events)
	if err != nil {
		return nil, 0, 0, err
	}
	var hands domain.HandLog
	hands.Record(events...)
	luck = eventsLuck(m, seed, events)
	for step := 0; !m.Finished(); step++ {
		if step > maxDuelSteps {
			return nil, 0, 0, fmt.Errorf("no end after %d moves", step)
		}
		seat := m.Turn()
		ch := seats[seat]
		if p, ok := ch.(peeker); ok {
			ch = p.seeing(m.SeatView(1-seat, hands))
		}
		mv, err := ch.Choose(context.Background(), m.SeatView(seat, hands))
		if err != nil {
			return nil, 0, 0, err
		}
		evs, err := m.Act(seat, mv, at)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("seat %d: %w", seat, err)
		}
		hands.Record(evs...)
		luck += eventsLuck(m, seed, evs)
	}
	w, _ := m.WinnerSide()
	return m.Scores(), w, luck, nil
}

// BenchmarkExpertVsReference is the expert's strength against the reference player with the
// same budget of playouts (docs/bots.md, "Against a plain Monte Carlo player"). One op is one
// deal sequence played twice, seats swapped, so -benchtime 200x plays 400 matches:
//
//	go test ./domain/bot -run '^$' -bench ExpertVsReference -benchtime 200x -cpu 1
//
// It reports the expert's win rate and its 95% Wilson interval (the benchmark's own first run
// of one op is not counted in the line of the run that follows).
func BenchmarkExpertVsReference(b *testing.B) {
	vsReference(b, firstDeals, NewExpert(1, DefaultRollouts), "expert against the reference")
}

// firstDeals names the deal sequences the variants of exp_test.go were chosen on.
const firstDeals = "expert-vs-reference"

// vsReference plays a against the reference at the expert's budget on b.N deal sequences of
// the set named deals, and reports a's result under label.
func vsReference(b *testing.B, deals string, a chooser, label string) {
	ref := &reference{seed: 2, playouts: DefaultRollouts}
	duel(b, deals, a, ref, b.N).report(b, label)
}

// BenchmarkExpertOnFreshDeals is BenchmarkExpertVsReference on deal sequences of their own,
// which no variant of exp_test.go was chosen on, so its figure carries none of the luck of
// picking the best of several rows measured on the same deals (docs/bots.md):
//
//	go test ./domain/bot -run '^$' -bench ExpertOnFreshDeals -benchtime 500x -cpu 1
func BenchmarkExpertOnFreshDeals(b *testing.B) {
	vsReference(b, freshDeals, NewExpert(1, DefaultRollouts), "expert against the reference, fresh deals")
}

// freshDeals names the deal sequences kept for confirming a choice made on the deals of
// BenchmarkExpertVsReference.
const freshDeals = "expert-vs-reference/fresh"

// BenchmarkExpertOnThirdDeals is BenchmarkExpertOnFreshDeals on a third set of 500 deal
// sequences, played first after the expert was chosen, to measure it again on deals that
// played no part in any choice (docs/bots.md):
//
//	go test ./domain/bot -run '^$' -bench ExpertOnThirdDeals -benchtime 500x -cpu 1
func BenchmarkExpertOnThirdDeals(b *testing.B) {
	vsReference(b, thirdDeals, NewExpert(1, DefaultRollouts), "expert against the reference, third deals")
}

// thirdDeals names the third set of deal sequences.
const thirdDeals = "expert-vs-reference/dev2"

// BenchmarkExpertOnFourthDeals is BenchmarkExpertOnThirdDeals on a fourth set of 500 deal
// sequences, kept to confirm a variant chosen on the fresh and third deals (docs/bots.md):
//
//	go test ./domain/bot -run '^$' -bench ExpertOnFourthDeals -benchtime 500x -cpu 1
func BenchmarkExpertOnFourthDeals(b *testing.B) {
	vsReference(b, fourthDeals, NewExpert(1, DefaultRollouts), "expert against the reference, fourth deals")
}

// fourthDeals names the fourth set of deal sequences.
const fourthDeals = "expert-vs-reference/confirm"

// TestDuelIsFair checks the harness on players that cannot differ: a strategy against itself
// wins exactly half, since every deal is played from both seats by the same deterministic
// player.
func TestDuelIsFair(t *testing.T) {
	g := NewGreedy()
	r := duel(t, "fair", g, g, 8)
	if r.matches != 16 || r.wins != 8 || r.margin != 0 {
		t.Fatalf("greedy against itself: %s, want 8 of 16 and no margin", r)
	}
	if lo, hi := r.interval(); lo > 0.5 || hi < 0.5 {
		t.Fatalf("interval [%v, %v] leaves out one half", lo, hi)
	}
}

// TestReferenceBeatsGreedy checks the reference is the Monte Carlo player it says it is: even
// at a small budget it clearly beats greedy play, which is what its playouts use.
func TestReferenceBeatsGreedy(t *testing.T) {
	r := duel(t, "reference-vs-greedy", &reference{seed: 3, playouts: 200}, NewGreedy(), 20)
	if r.rate() < 0.6 {
		t.Fatalf("reference against greedy: %s, want at least 60%%", r)
	}
}

// dealOffset is where every duel starts in its set of deal sequences: BOT_DEAL_OFFSET=n
// plays sequences n, n+1, ..., so that two processes, one per core, can share a long run
// on distinct deals (BOT_DUEL_LOG keeps each one's matches).
var dealOffset = func() int {
	n, _ := strconv.Atoi(os.Getenv("BOT_DEAL_OFFSET"))
	return max(n, 0)
}()

// duelLog is where duel writes each match's outcome when BOT_DUEL_LOG names a file: a line
// "deal swap won margin luck" per match (won is 1 when the first player won, luck is the
// first player's luck of the deals, dealLuck), so that two
// variants' runs on the same deals can be compared match by match. The benchmark's own first
// run of one op writes the first two lines.
var duelLog = func() io.Writer {
	if p := os.Getenv("BOT_DUEL_LOG"); p != "" {
		if f, err := os.Create(p); err == nil {
			return f
		}
	}
	return nil
}()
