package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/simulate"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/openskill"
)

// ratedOptions are the flags of simulate --rated.
type ratedOptions struct {
	matches int
	formats []ratings.Format
	seed    []byte
	seedArg string
	workers int
	points  int
	runs    int
}

// isRated says whether simulate's arguments ask for --rated.
func isRated(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if name, val, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && name == "rated" {
			return val == "" || val == "true" || val == "1"
		}
	}
	return false
}

func parseSimulateRated(args []string, out io.Writer) (ratedOptions, error) {
	fs := flag.NewFlagSet("allfives simulate --rated", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Bool("rated", true, "rate matches of the bots (the four and the eight levels) as the server does (docs/ratings.md), format by format, and show their ratings settle")
	matches := fs.Int("matches", 2000, "rated matches per format")
	formats := fs.String("formats", "2p,3p,4p,2v2", "formats to play, comma-separated: 2p, 3p, 4p, 2v2")
	seed := fs.String("seed", "1", "seed, an integer or a hex string; the same seed plays the same matches")
	workers := fs.Int("workers", runtime.NumCPU(), "matches played at once")
	points := fs.Int("points", 5, "how many times along the way the ratings are shown, the last at the end")
	runs := fs.Int("runs", 1, "independent runs per format, each on seeds of its own; with more than one, a table of each bot's final mu averaged over the runs")
	if err := fs.Parse(args); err != nil {
		return ratedOptions{}, err
	}
	if fs.NArg() > 0 {
		return ratedOptions{}, fmt.Errorf("simulate: unexpected argument %q", fs.Arg(0))
	}
	material, err := parseSeed(*seed)
	if err != nil {
		return ratedOptions{}, err
	}
	o := ratedOptions{matches: *matches, seed: material, seedArg: *seed, workers: *workers, points: *points, runs: *runs}
	for _, f := range splitList(*formats) {
		format, ok := ratings.ParseFormat(f)
		if !ok {
			return ratedOptions{}, fmt.Errorf("simulate: format %q is not 2p, 3p, 4p or 2v2", f)
		}
		o.formats = append(o.formats, format)
	}
	if o.matches < 1 || o.workers < 1 || o.points < 1 || o.runs < 1 || len(o.formats) == 0 {
		return ratedOptions{}, fmt.Errorf("simulate: matches, workers, points and runs must be at least 1, and a format given")
	}
	return o, nil
}

// runSimulateRated plays rated matches of the bots of bot.AllNames (the four and the eight
// levels) in-process, each format apart: every match seats distinct bots, as many as the
// format has seats, drawn at random from the twelve, in a random order, and is rated in order
// by the server's own code, from the match's log (ratings.ResultOf, ratings.Rate). It prints each bot's rating as it settles, then a table
// per format with the model's 95% interval for each bot's skill, mu +- 1.96 sigma.
func runSimulateRated(ctx context.Context, args []string, stdout io.Writer) error {
	o, err := parseSimulateRated(args, stdout)
	if err != nil {
		return helpOK(err)
	}
	fmt.Fprintf(stdout, "allfives simulate --rated: seed %s, %s per format, %s\n", o.seedArg, count(o.matches, "match", "matches"), count(o.workers, "worker", "workers"))
	for _, f := range o.formats {
		if o.runs == 1 {
			if _, err := simulateFormat(ctx, o, f, stdout); err != nil {
				return err
			}
			continue
		}
		if err := simulateRuns(ctx, o, f, stdout); err != nil { // simulate_runs.go
			return err
		}
	}
	return nil
}

// ratedJob is one match to play: its index and seating.
type ratedJob struct {
	index   int
	seating []string
}

// seatings draws every match's seating of format f, from the seed.
func seatings(o ratedOptions, f ratings.Format) []ratedJob {
	sum := sha256.Sum256(append([]byte("allfives/simulate/rated/"+string(f)+"/"), o.seed...))
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
	seats := map[ratings.Format]int{ratings.Format2p: 2, ratings.Format3p: 3, ratings.Format4p: 4, ratings.Format2v2: 4}[f]
	jobs := make([]ratedJob, o.matches)
	for i := range jobs {
		names := bot.AllNames()
		rng.Shuffle(len(names), func(a, b int) { names[a], names[b] = names[b], names[a] })
		jobs[i] = ratedJob{index: i, seating: names[:seats]}
	}
	return jobs
}

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

// simulateFormat plays and rates one run of format f on o's seed, printing the ratings as they
// settle and the final table to stdout.
func simulateFormat(ctx context.Context, o ratedOptions, f ratings.Format, stdout io.Writer) (ratedRun, error) {
	results, elapsed, err := playFormat(ctx, o, f)
	if err != nil {
		return ratedRun{}, err
	}
	fmt.Fprintf(stdout, "\n%s: %s in %s (%.1f/s); the displayed rating (mu - 3 sigma) as the matches are rated:\n", f, count(len(results), "match", "matches"), elapsed.Round(time.Second), float64(len(results))/elapsed.Seconds())
	run, err := rateRun(results, o.points, stdout)
	if err != nil {
		return ratedRun{}, err
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
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

// playFormat plays every match of one run of format f, on o's seed, and returns their results
// in the matches' order and how long that took.
func playFormat(ctx context.Context, o ratedOptions, f ratings.Format) ([]ratings.Result, time.Duration, error) {
	jobs := seatings(o, f)
	results := make([]ratings.Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan ratedJob)
	var wg sync.WaitGroup
	start := time.Now()
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				// Strategies of the match's own, seeded by it: the same seed plays the same
				// matches whichever worker plays each.
				strategies := bot.Strategies(simulationBotSeed(fmt.Appendf(slices.Clone(o.seed), "/%s/%d", f, j.index)))
				results[j.index], errs[j.index] = playRated(ctx, o, f, j, strategies)
			}
		}()
	}
	go func() {
		defer close(next)
		for _, j := range jobs {
			select {
			case next <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, 0, err
		}
	}
	return results, time.Since(start), nil
}

// rateRun rates results in order, as the projection rates matches in the order they end, and
// prints each bot's displayed rating (mu - 3 sigma) points times along the way to w.
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

// playRated plays job j of format f to its end on the aggregate and reads its result from
// its log, as the projection does.
func playRated(ctx context.Context, o ratedOptions, f ratings.Format, j ratedJob, strategies map[string]domain.Strategy) (ratings.Result, error) {
	spec := domain.MatchSpec{Partnerships: f == ratings.Format2v2, Rated: true}
	for s, name := range j.seating {
		spec.Players = append(spec.Players, domain.PlayerInfo{Seat: s, Name: fmt.Sprintf("%s-%d", name, s), Kind: domain.Bot, Bot: name})
	}
	seed := simulate.DealSeed(append([]byte("rated/"+string(f)+"/"), o.seed...), j.index)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(j.index) * time.Second)
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		return ratings.Result{}, err
	}
	m, err := domain.Resume(fmt.Sprintf("sim-%s-%d", f, j.index), seed, events)
	if err != nil {
		return ratings.Result{}, err
	}
	var hands domain.HandLog
	hands.Record(events...)
	for step := 0; !m.Finished(); step++ {
		if step > referee.MaxBotSteps {
			return ratings.Result{}, fmt.Errorf("match %d: no end after %d moves", j.index, step)
		}
		seat := m.Turn()
		mv, err := strategies[j.seating[seat]].Choose(ctx, m.SeatView(seat, hands))
		if err != nil {
			return ratings.Result{}, err
		}
		evs, err := m.Act(seat, mv, at)
		if err != nil {
			return ratings.Result{}, fmt.Errorf("match %d: %w", j.index, err)
		}
		hands.Record(evs...)
		events = append(events, evs...)
	}
	res, ok, err := ratings.ResultOf(m.ID(), events)
	if err != nil || !ok {
		return ratings.Result{}, fmt.Errorf("match %d: not rated (%v)", j.index, err)
	}
	return res, nil
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
