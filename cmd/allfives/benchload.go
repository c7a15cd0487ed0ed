package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// phase runs one kind of load for d (or cfg.ops operations per client).
type phase func(ctx context.Context, d time.Duration) (*result, error)

// alternate runs the phases in turn for cfg.rounds rounds of cfg.duration/rounds each, and
// returns each phase's results merged over the rounds.
func (cfg benchConfig) alternate(ctx context.Context, phases ...phase) ([]*result, error) {
	out := make([]*result, len(phases))
	for i := range out {
		out[i] = &result{}
	}
	rounds := cfg.rounds
	if cfg.ops > 0 {
		rounds = 1
	}
	for range rounds {
		for i, run := range phases {
			r, err := run(ctx, cfg.duration/time.Duration(rounds))
			if err != nil {
				return nil, err
			}
			out[i].add(r)
		}
	}
	for _, r := range out {
		slices.Sort(r.lats)
	}
	return out, nil
}

// moves has every client play its own match by reading the state and posting its first legal
// move, with an Idempotency-Key on each move when keyed. The latency is the POST's.
func (cfg benchConfig) moves(ctx context.Context, c *benchClient, keyed bool) (phase, error) {
	matches := make([]benchMatch, cfg.clients)
	for i := range matches {
		m, err := c.create(ctx, cfg.bot, cfg.target)
		if err != nil {
			return nil, err
		}
		matches[i] = m
	}
	return func(ctx context.Context, d time.Duration) (*result, error) {
		return cfg.load(ctx, d, func(ctx context.Context, client int, _ *rand.Rand) (time.Duration, error) {
			for {
				m := matches[client]
				v, err := c.state(ctx, m)
				if err != nil {
					return 0, err
				}
				if v.Status != "in_progress" || len(v.LegalMoves) == 0 {
					if matches[client], err = c.create(ctx, cfg.bot, cfg.target); err != nil {
						return 0, err
					}
					continue
				}
				k := ""
				if keyed {
					k = key(client, m, v.Version)
				}
				return timed(func() error { _, err := c.move(ctx, m, v.LegalMoves[0], k); return err })
			}
		})
	}, nil
}

// reads creates n live matches and has every client read the state of random ones. The
// answer is read and discarded, as healthz's is, so the client's work is alike for both.
func (cfg benchConfig) reads(ctx context.Context, c *benchClient, n int) (phase, error) {
	matches := make([]benchMatch, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, cfg.clients)
	for w := range cfg.clients {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n && errs[w] == nil; i = int(next.Add(1)) - 1 {
				matches[i], errs[w] = c.create(ctx, cfg.bot, cfg.target)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return func(ctx context.Context, d time.Duration) (*result, error) {
		return cfg.load(ctx, d, func(ctx context.Context, _ int, rng *rand.Rand) (time.Duration, error) {
			m := matches[rng.IntN(n)]
			return timed(func() error { return c.do(ctx, "GET", "/api/v1/matches/"+m.ID, m.Token, nil, nil, nil) })
		})
	}, nil
}

// result is one phase: how many operations in how long, and each one's latency.
type result struct {
	ops     int
	elapsed time.Duration
	lats    []time.Duration // sorted
	cpu     time.Duration   // server CPU during the phase, when metered
	metered bool
}

func (r *result) rate() float64 { return float64(r.ops) / r.elapsed.Seconds() }

// add merges another round of the same phase into r.
func (r *result) add(o *result) {
	r.ops += o.ops
	r.elapsed += o.elapsed
	r.cpu += o.cpu
	r.metered = r.metered || o.metered
	r.lats = append(r.lats, o.lats...)
}

// pct is the p-th percentile latency.
func (r *result) pct(p int) time.Duration {
	if len(r.lats) == 0 {
		return 0
	}
	return r.lats[min(len(r.lats)-1, len(r.lats)*p/100)]
}

// load runs op on every client until the phase ends, and gathers the latencies. The first
// error ends the phase for everyone.
func (cfg benchConfig) load(ctx context.Context, d time.Duration, op func(ctx context.Context, client int, rng *rand.Rand) (time.Duration, error)) (*result, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	deadline := time.Now().Add(d)
	lats := make([][]time.Duration, cfg.clients)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range cfg.clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), uint64(start.UnixNano())))
			for n := 0; ; n++ {
				if cfg.ops > 0 && n >= cfg.ops || cfg.ops == 0 && time.Now().After(deadline) || ctx.Err() != nil {
					return
				}
				d, err := op(ctx, i, rng)
				if err != nil {
					cancel(err)
					return
				}
				lats[i] = append(lats[i], d)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	r := &result{elapsed: time.Since(start), lats: slices.Concat(lats...)}
	r.ops = len(r.lats)
	slices.Sort(r.lats)
	return r, nil
}

func timed(f func() error) (time.Duration, error) {
	t0 := time.Now()
	err := f()
	return time.Since(t0), err
}

func ms(d time.Duration) string { return fmt.Sprintf("%6.2fms", float64(d.Microseconds())/1000) }

// msFine is ms to the microsecond, for CPU per request, which a tenth of a millisecond hides.
func msFine(d time.Duration) string { return fmt.Sprintf("%5.3f ms", float64(d.Microseconds())/1000) }
