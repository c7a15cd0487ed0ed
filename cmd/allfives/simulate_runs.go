package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/allfives/allfives/domain/app/ratings"
)

// simulateRuns plays o.runs independent runs of format f, each on seeds of its own (the
// first on o's seed, so it is the run simulate --rated plays alone), and prints each run's
// final mu per bot, then each bot's final mu averaged over the runs. One run's final mu keeps
// wandering by about its sigma however long the run, since the model adds uncertainty back
// after every match (tau); the mean over independent runs does not, and its standard error
// says how far it may be from where the bot stands.
func simulateRuns(ctx context.Context, o ratedOptions, f ratings.Format, stdout io.Writer) error {
	runs := make([]ratedRun, 0, o.runs)
	fmt.Fprintf(stdout, "\n%s: %s of %s each\n", f, count(o.runs, "run", "runs"), count(o.matches, "match", "matches"))
	for k := range o.runs {
		one := o
		one.seed = runSeed(o.seed, k)
		results, elapsed, err := playFormat(ctx, one, f)
		if err != nil {
			return err
		}
		run, err := rateRun(results, 1, io.Discard)
		if err != nil {
			return err
		}
		runs = append(runs, run)
		fmt.Fprintf(stdout, "run %d of %d: %s in %s (%.1f/s)\n", k+1, o.runs, count(len(results), "match", "matches"), elapsed.Round(time.Second), float64(len(results))/elapsed.Seconds())
	}
	return printRuns(stdout, runs)
}

// printRuns prints each bot's final mu in each run, then a table of its means over the runs.
func printRuns(stdout io.Writer, runs []ratedRun) error {
	bots := ratedBots()
	fmt.Fprintf(stdout, "\neach bot's mu at the end of each run:\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "run\t%s\t\n", strings.Join(bots, "\t"))
	for k, run := range runs {
		row := []string{fmt.Sprint(k + 1)}
		for _, b := range bots {
			row = append(row, fmt.Sprintf("%.2f", run.standing(b).Rating.Mu))
		}
		fmt.Fprintf(tw, "%s\t\n", strings.Join(row, "\t"))
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tmean mu\tstd. error\tlowest - highest\tmean sigma\tmean rating\tmean mu, 2nd halves\t\n")
	for _, b := range bots {
		var mu, sigma, rating, settled []float64
		for _, r := range runs {
			st := r.standing(b)
			mu, sigma = append(mu, st.Rating.Mu), append(sigma, st.Rating.Sigma)
			rating, settled = append(rating, st.Ordinal()), append(settled, r.settled[b].mean())
		}
		m, se := meanAndError(mu)
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f - %.2f\t%.2f\t%.2f\t%.2f\t\n", b, m, se, slices.Min(mu), slices.Max(mu), mean(sigma), mean(rating), mean(settled))
	}
	return tw.Flush()
}

// runSeed is the seed material of run k: o's seed for the first, so that it plays what
// simulate --rated plays alone, and a seed derived from it for each other.
func runSeed(seed []byte, k int) []byte {
	if k == 0 {
		return seed
	}
	return fmt.Appendf(slices.Clone(seed), "/run/%d", k)
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(max(len(xs), 1))
}

// meanAndError is the mean of xs and its standard error, the sample's standard deviation over
// the square root of its size (0 for a single value).
func meanAndError(xs []float64) (float64, float64) {
	m := mean(xs)
	if len(xs) < 2 {
		return m, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return m, math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
}
