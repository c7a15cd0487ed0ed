package simulate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
)

// RatedConfig is a rated simulation (`allfives simulate --rated`): Matches rated matches of
// the bots per format of Formats, played by Workers at once from Seed, with the ratings shown
// Points times along the way; with Runs above 1, that many independent runs per format.
type RatedConfig struct {
	Matches int
	Formats []ratings.Format
	Seed    []byte
	Workers int
	Points  int
	Runs    int
}

// Check refuses a configuration that would play nothing.
func (c RatedConfig) Check() error {
	if c.Matches < 1 || c.Workers < 1 || c.Points < 1 || c.Runs < 1 || len(c.Formats) == 0 {
		return errors.New("matches, workers, points and runs must be at least 1, and a format given")
	}
	return nil
}

// BotSeed derives the strategies' seed from a simulation's seed, so one seed fixes everything.
func BotSeed(material []byte) uint64 {
	sum := sha256.Sum256(append([]byte("allfives/simulate/bots/"), material...))
	return binary.BigEndian.Uint64(sum[:8])
}

// RunRated plays rated matches of the bots of bot.AllNames (the four and the eight levels)
// in-process, each format apart: every match seats distinct bots, as many as the format has
// seats, drawn at random from the twelve, in a random order, and is rated in order by the
// server's own code, from the match's log (ratings.ResultOf, ratings.Rate). It writes each
// bot's rating as it settles, then a table per format with the model's 95% interval for each
// bot's skill, mu +- 1.96 sigma; with c.Runs above 1, the runs' tables (rated_runs.go).
func RunRated(ctx context.Context, c RatedConfig, w io.Writer) error {
	if err := c.Check(); err != nil {
		return err
	}
	for _, f := range c.Formats {
		var err error
		if c.Runs == 1 {
			_, err = ratedFormat(ctx, c, f, w)
		} else {
			err = ratedRuns(ctx, c, f, w)
		}
		if err != nil {
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
func seatings(c RatedConfig, f ratings.Format) []ratedJob {
	sum := sha256.Sum256(append([]byte("allfives/simulate/rated/"+string(f)+"/"), c.Seed...))
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
	seats := map[ratings.Format]int{ratings.Format2p: 2, ratings.Format3p: 3, ratings.Format4p: 4, ratings.Format2v2: 4}[f]
	jobs := make([]ratedJob, c.Matches)
	for i := range jobs {
		names := bot.AllNames()
		rng.Shuffle(len(names), func(a, b int) { names[a], names[b] = names[b], names[a] })
		jobs[i] = ratedJob{index: i, seating: names[:seats]}
	}
	return jobs
}

// playFormat plays every match of one run of format f, on c's seed, and returns their results
// in the matches' order and how long that took.
func playFormat(ctx context.Context, c RatedConfig, f ratings.Format) ([]ratings.Result, time.Duration, error) {
	jobs := seatings(c, f)
	results := make([]ratings.Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan ratedJob)
	var wg sync.WaitGroup
	start := time.Now()
	for range c.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				// Strategies of the match's own, seeded by it: the same seed plays the same
				// matches whichever worker plays each.
				strategies := bot.Strategies(BotSeed(fmt.Appendf(slices.Clone(c.Seed), "/%s/%d", f, j.index)))
				results[j.index], errs[j.index] = playRated(ctx, c, f, j, strategies)
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

// playRated plays job j of format f to its end on the aggregate and reads its result from
// its log, as the projection does.
func playRated(ctx context.Context, c RatedConfig, f ratings.Format, j ratedJob, strategies map[string]domain.Strategy) (ratings.Result, error) {
	spec := domain.MatchSpec{Partnerships: f == ratings.Format2v2, Rated: true}
	for s, name := range j.seating {
		spec.Players = append(spec.Players, domain.PlayerInfo{Seat: s, Name: fmt.Sprintf("%s-%d", name, s), Kind: domain.Bot, Bot: name})
	}
	seed := DealSeed(append([]byte("rated/"+string(f)+"/"), c.Seed...), j.index)
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
