package analysis_test

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/bot"
)

// BenchmarkPuzzleRule is the data behind the puzzle rule's two numbers (docs/puzzles.md,
// "Why these numbers"), run once:
//
//	go test -run '^$' -bench PuzzleRule -benchtime 1x -timeout 1h ./domain/analysis/
//
// It plays 100 matches among the project's bots (three in four between two players, one in
// four between two partnerships; random, greedy and levels 2, 4 and 6 in turn), reviews each
// with the review's judgement (default budget, no par: par does not change a decision's
// values) and prints, for a grid of least losses X and least margins Y, how many decisions
// the rule would make puzzles of, how many matches give at least one, and how often the
// puzzle's best move is also the best in hindsight (knowing every hand): a clear puzzle's
// answer should rarely depend on the hidden tiles.
func BenchmarkPuzzleRule(b *testing.B) {
	for range b.N {
		results := reviewBotMatches(b, 100, runtime.GOMAXPROCS(0))
		decisions := 0
		for _, r := range results {
			decisions += len(r.Decisions)
		}
		fmt.Printf("matches %d judged decisions %d\n", len(results), decisions)
		for _, x := range []float64{2, 3, 5, 8, 12} {
			for _, y := range []float64{0, 1, 2, 3, 5, 8} {
				c := countPuzzles(results, analysis.PuzzleRule{MinLoss: x, MinMargin: y})
				fmt.Printf("X=%-4g Y=%-4g puzzles %4d  matches with one %3d  per match %.2f  hindsight agrees %.0f%%  by seat's bot %s\n",
					x, y, c.puzzles, c.matches, float64(c.puzzles)/float64(len(results)), 100*c.agree/float64(max(c.puzzles, 1)), c.byBot())
			}
		}
	}
}

// botLineup is who sits where in bot match i: 2 players, or 4 in partnerships every fourth.
func botLineup(i int) (names []string, partners bool) {
	pool := []string{"random", "greedy", "level-2", "level-4", "level-6"}
	seats := 2
	if i%4 == 3 {
		seats, partners = 4, true
	}
	for s := range seats {
		names = append(names, pool[(i+s*(1+i/len(pool)))%len(pool)])
	}
	return names, partners
}

func botChooser(name string, seed uint64) chooser {
	switch name {
	case "random":
		return bot.NewRandom(seed)
	case "greedy":
		return bot.NewGreedy()
	}
	var n int
	fmt.Sscanf(name, "level-%d", &n)
	return bot.NewLevel(seed, n, bot.DefaultRollouts)
}

// reviewedMatch is one bot match's review and the bot in each seat.
type reviewedMatch struct {
	*analysis.Result
	bots []string
}

// reviewBotMatches plays and reviews n bot matches on workers goroutines, each kept in its
// own slot so the figures do not depend on scheduling.
func reviewBotMatches(tb testing.TB, n, workers int) []reviewedMatch {
	out := make([]reviewedMatch, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				names, partners := botLineup(i)
				players := make([]chooser, len(names))
				for s, name := range names {
					players[s] = botChooser(name, uint64(100*i+s+1))
				}
				events := play(tb, players, partners, 0, seedOf(fmt.Sprint("puzzles/", i)))
				out[i] = reviewedMatch{mustReview(tb, events, analysis.Options{ParRuns: -1}), names}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

type puzzleCounts struct {
	puzzles, matches int
	agree            float64
	bots             map[string]int
}

func (c puzzleCounts) byBot() string {
	names := make([]string, 0, len(c.bots))
	for n := range c.bots {
		names = append(names, n)
	}
	sort.Strings(names)
	s := ""
	for _, n := range names {
		s += fmt.Sprintf("%s:%d ", n, c.bots[n])
	}
	return s
}

func countPuzzles(results []reviewedMatch, rule analysis.PuzzleRule) puzzleCounts {
	c := puzzleCounts{bots: map[string]int{}}
	for _, r := range results {
		found := false
		for _, d := range r.Decisions {
			if !rule.Puzzle(d) {
				continue
			}
			c.puzzles++
			c.bots[r.bots[d.Seat]]++
			found = true
			if d.Hindsight.Best == d.Best {
				c.agree++
			}
		}
		if found {
			c.matches++
		}
	}
	return c
}
