package analysis_test

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/bot"
)

// TestExpertJudgedAboveRandom is the calibration in small, on small budgets: in two duplicate
// matches of the expert against random (each deal played from both seats), random loses more per decision
// than the expert and is less accurate.
func TestExpertJudgedAboveRandom(t *testing.T) {
	s := calibrate(t, "expert", 2, 1, 300, fastOptions())
	if s["random"].loss.mean() <= s["expert"].loss.mean() || s["random"].acc.mean() >= s["expert"].acc.mean() {
		t.Fatalf("expert: loss %.2f accuracy %.1f; random: loss %.2f accuracy %.1f",
			s["expert"].loss.mean(), s["expert"].acc.mean(), s["random"].loss.mean(), s["random"].acc.mean())
	}
}

// BenchmarkCalibration is the calibration of docs/review.md, run once:
//
//	go test -run '^$' -bench Calibration -benchtime 1x -timeout 2h ./domain/analysis/
//
// It reviews 200 duplicate matches of the expert against random and 200 of greedy against
// random (judgement only, the default budget) and prints, per strategy, the mean loss and
// accuracy over matches with 95% intervals and how its decisions spread over the classes.
func BenchmarkCalibration(b *testing.B) {
	for range b.N {
		for _, strong := range []string{"expert", "greedy"} {
			s := calibrate(b, strong, 200, runtime.GOMAXPROCS(0), bot.DefaultRollouts, analysis.Options{ParRuns: -1})
			for _, name := range []string{strong, "random"} {
				st := s[name]
				fmt.Printf("%s vs random: %-6s matches %d decisions %d  mean loss %.2f ± %.2f  accuracy %.1f ± %.1f  classes %s\n",
					strong, name, st.loss.n(), st.decisions, st.loss.mean(), st.loss.half(), st.acc.mean(), st.acc.half(), st.classes())
			}
		}
	}
}

// stats gathers one strategy's reviews: per match its mean loss and accuracy, and its
// decisions by class.
type stats struct {
	loss, acc samples
	decisions int
	counts    analysis.Classes
}

func (s *stats) classes() string {
	c, n := s.counts, float64(max(s.decisions, 1))
	return fmt.Sprintf("best %.0f%% good %.0f%% inaccuracy %.0f%% mistake %.0f%% blunder %.0f%%",
		100*float64(c.Best)/n, 100*float64(c.Good)/n, 100*float64(c.Inaccuracy)/n, 100*float64(c.Mistake)/n, 100*float64(c.Blunder)/n)
}

type samples []float64

func (s samples) n() int { return len(s) }

func (s samples) mean() float64 {
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return sum / float64(max(len(s), 1))
}

// half is the half-width of the normal 95% interval of the mean.
func (s samples) half() float64 {
	if len(s) < 2 {
		return 0
	}
	m, ss := s.mean(), 0.0
	for _, x := range s {
		ss += (x - m) * (x - m)
	}
	return 1.96 * math.Sqrt(ss/float64(len(s)-1)/float64(len(s)))
}

// calibrate plays matches duplicate matches of strong against random (deal d from both
// seats), the expert on rollouts, reviews each with opts and gathers the stats per strategy. Matches run on workers
// goroutines, each result kept in its match's slot, so the figures do not depend on
// scheduling.
func calibrate(tb testing.TB, strong string, matches, workers, rollouts int, opts analysis.Options) map[string]*stats {
	results := make([]*analysis.Result, matches)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var s chooser = bot.NewGreedy()
				if strong == "expert" {
					s = bot.NewExpert(11, rollouts)
				}
				players := []chooser{s, bot.NewRandom(13)}
				if i%2 == 1 {
					players[0], players[1] = players[1], players[0]
				}
				events := play(tb, players, false, 0, seedOf(fmt.Sprint("calibrate/", i/2)))
				results[i] = mustReview(tb, events, opts)
			}
		}()
	}
	for i := range matches {
		next <- i
	}
	close(next)
	wg.Wait()
	out := map[string]*stats{strong: {}, "random": {}}
	for i, res := range results {
		for _, seat := range res.Seats {
			name := strong
			if (seat.Seat == 1) == (i%2 == 0) {
				name = "random"
			}
			st := out[name]
			if seat.Judged == 0 {
				continue
			}
			st.loss = append(st.loss, seat.MeanLoss)
			st.acc = append(st.acc, seat.Accuracy)
			st.decisions += seat.Judged
			c := seat.Classes
			st.counts.Best += c.Best
			st.counts.Good += c.Good
			st.counts.Inaccuracy += c.Inaccuracy
			st.counts.Mistake += c.Mistake
			st.counts.Blunder += c.Blunder
		}
	}
	return out
}
