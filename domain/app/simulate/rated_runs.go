package simulate

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/openskill"
)

// ratedRun is what one run of a format ends with: each bot's standing, and its mean mu over
// the run's second half.
type ratedRun struct {
	state   map[string]ratings.Standing
	settled map[string]*muMean
}

// standing is bot b's standing at the end of the run: the prior for a bot that never sat.
func (r ratedRun) standing(b string) ratings.Standing {
	if st, ok := r.state[b]; ok {
		return st
	}
	return ratings.Standing{Player: b, Rating: openskill.Default().New()}
}

// ratedFormat plays and rates one run of format f on c's seed, writing the ratings as they
// settle and the final table to w.
func ratedFormat(ctx context.Context, c RatedConfig, f ratings.Format, w io.Writer) (ratedRun, error) {
	results, elapsed, err := playFormat(ctx, c, f)
	if err != nil {
		return ratedRun{}, err
	}
	fmt.Fprintf(w, "\n%s: %s in %s (%.1f/s); the displayed rating (mu - 3 sigma) as the matches are rated:\n", f, plural(len(results), "match", "matches"), elapsed.Round(time.Second), float64(len(results))/elapsed.Seconds())
	run, err := rateRun(results, c.Points, w)
	if err != nil {
		return ratedRun{}, err
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tmatches\twins\twin rate\tmu\tsigma\t95%% interval of mu\trating\tmean mu, 2nd half\t\n")
	for _, b := range ratedBots() {
		st := run.standing(b)
		lo, hi := st.Rating.Mu-1.96*st.Rating.Sigma, st.Rating.Mu+1.96*st.Rating.Sigma
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%.2f\t%.2f\t%.2f - %.2f\t%.2f\t%.2f\t\n", b, st.Matches, st.Wins, 100*float64(st.Wins)/float64(max(st.Matches, 1)), st.Rating.Mu, st.Rating.Sigma, lo, hi, st.Ordinal(), run.settled[b].mean())
	}
	return run, tw.Flush()
}

// ratedBots are the rated players of the strategies of bot.AllNames, in its order.
func ratedBots() []string {
	bots := make([]string, 0, len(bot.AllNames()))
	for _, n := range bot.AllNames() {
		bots = append(bots, ratings.BotPrefix+n)
	}
	return bots
}

// rateRun rates results in order, as the projection rates matches in the order they end, and
// writes each bot's displayed rating (mu - 3 sigma) points times along the way to w.
func rateRun(results []ratings.Result, points int, w io.Writer) (ratedRun, error) {
	model := openskill.Default()
	run := ratedRun{state: map[string]ratings.Standing{}, settled: map[string]*muMean{}}
	bots := ratedBots()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "matches\t%s\t\n", strings.Join(bots, "\t"))
	for i, res := range results {
		_, standings, err := ratings.Rate(model, res, run.state)
		if err != nil {
			return ratedRun{}, err
		}
		for _, st := range standings {
			run.state[st.Player] = st
		}
		if 2*i >= len(results) { // each bot's mu after each match of the second half
			for _, b := range bots {
				if run.settled[b] == nil {
					run.settled[b] = &muMean{}
				}
				run.settled[b].add(run.standing(b).Rating.Mu)
			}
		}
		if done := i + 1; done == len(results) || done%max(1, len(results)/points) == 0 {
			row := []string{fmt.Sprint(done)}
			for _, b := range bots {
				row = append(row, fmt.Sprintf("%.2f", run.standing(b).Ordinal()))
			}
			fmt.Fprintf(tw, "%s\t\n", strings.Join(row, "\t"))
		}
	}
	return run, tw.Flush()
}

// ratedRuns plays c.Runs independent runs of format f, each on seeds of its own (the first on
// c's seed, so it is the run a single run plays), and writes each run's final mu per bot, then
// each bot's final mu averaged over the runs. One run's final mu keeps wandering by about its
// sigma however long the run, since the model adds uncertainty back after every match (tau);
// the mean over independent runs does not, and its standard error says how far it may be from
// where the bot stands.
func ratedRuns(ctx context.Context, c RatedConfig, f ratings.Format, w io.Writer) error {
	runs := make([]ratedRun, 0, c.Runs)
	fmt.Fprintf(w, "\n%s: %s of %s each\n", f, plural(c.Runs, "run", "runs"), plural(c.Matches, "match", "matches"))
	for k := range c.Runs {
		one := c
		one.Seed = runSeed(c.Seed, k)
		results, elapsed, err := playFormat(ctx, one, f)
		if err != nil {
			return err
		}
		run, err := rateRun(results, 1, io.Discard)
		if err != nil {
			return err
		}
		runs = append(runs, run)
		fmt.Fprintf(w, "run %d of %d: %s in %s (%.1f/s)\n", k+1, c.Runs, plural(len(results), "match", "matches"), elapsed.Round(time.Second), float64(len(results))/elapsed.Seconds())
	}
	return printRuns(w, runs)
}

// printRuns writes each bot's final mu in each run, then a table of its means over the runs.
func printRuns(w io.Writer, runs []ratedRun) error {
	bots := ratedBots()
	fmt.Fprintf(w, "\neach bot's mu at the end of each run:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "run\t%s\t\n", strings.Join(bots, "\t"))
	for k, run := range runs {
		row := []string{fmt.Sprint(k + 1)}
		for _, b := range bots {
			row = append(row, fmt.Sprintf("%.2f", run.standing(b).Rating.Mu))
		}
		fmt.Fprintf(tw, "%s\t\n", strings.Join(row, "\t"))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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

// runSeed is the seed material of run k: c's seed for the first, so that it plays what a
// single run plays, and a seed derived from it for each other.
func runSeed(seed []byte, k int) []byte {
	if k == 0 {
		return seed
	}
	return fmt.Appendf(slices.Clone(seed), "/run/%d", k)
}

// muMean averages a bot's mu over the matches of a run's second half. The model adds
// uncertainty back after every match (tau), so one bot's final mu keeps wandering by about its
// sigma however long the run; the mean over many matches is a steadier reading of where the
// bot stands, which is what ordering close levels needs.
type muMean struct {
	sum float64
	n   int
}

func (m *muMean) add(mu float64) { m.sum += mu; m.n++ }

// mean is the average, 0 when nothing was added (a run too short to have a second half).
func (m *muMean) mean() float64 {
	if m == nil || m.n == 0 {
		return 0
	}
	return m.sum / float64(m.n)
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

// plural is n and the noun for it, in the singular for 1: "1 match", "3 matches".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
