package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// benchConfig is what `allfives bench` runs with.
type benchConfig struct {
	addr, baseline string
	clients        int
	duration       time.Duration
	ops            int // per client and phase; when > 0 a phase ends after it, not after duration
	rounds         int
	hot, spread    int
	bot            string
	target         int
}

func parseBench(args []string, getenv func(string) string, out io.Writer) (benchConfig, error) {
	var c benchConfig
	f := newEnvFlags("bench", getenv, out)
	f.fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "the server to load: "+serverHelp)
	f.fs.StringVar(&c.baseline, "baseline-addr", "", "a second server (e.g. one run with --sync off) to run the same moves against, for the ratio; host:port or a URL")
	f.fs.IntVar(&c.clients, "clients", 32, "concurrent clients")
	f.fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long each phase runs")
	f.fs.IntVar(&c.rounds, "rounds", 5, "rounds each phase's duration is split into, alternating with the phases it is compared with")
	f.fs.IntVar(&c.ops, "ops", 0, "when > 0, each client does this many operations per phase instead of running for -duration")
	f.fs.IntVar(&c.hot, "hot", 64, "live matches the hot reads spread over")
	f.fs.IntVar(&c.spread, "spread", 6000, "live matches the spread reads spread over")
	f.fs.StringVar(&c.bot, "bot", "random", "strategy of the bot seat in every match")
	f.fs.IntVar(&c.target, "target", 1000, "target score of the matches played")
	if err := f.parse(args); err != nil {
		return c, err
	}
	if c.clients < 1 || c.rounds < 1 || c.hot < 1 || c.spread < 1 || c.ops < 0 || (c.ops == 0 && c.duration <= 0) {
		return c, errors.New("bench: clients, hot and spread must be at least 1, and ops or duration positive")
	}
	var err error
	if c.addr, err = serverURL(c.addr); err != nil {
		return c, fmt.Errorf("bench: --addr: %w", err)
	}
	if c.baseline != "" {
		if c.baseline, err = serverURL(c.baseline); err != nil {
			return c, fmt.Errorf("bench: --baseline-addr: %w", err)
		}
	}
	return c, nil
}

// runBench loads a running server through its public API and prints the rates, the latencies
// of moves and the ratios docs/performance.md quotes (docs/performance.md, "Under load: allfives bench").
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, err := parseBench(args, getenv, stdout)
	if err != nil {
		return helpOK(err)
	}
	c := newBenchClient(cfg.addr, cfg.clients)
	p := func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }
	p("bench %s: %d clients, %s", c.base, cfg.clients, cfg.span())

	// Each ratio compares phases run in alternating rounds, so that both sides of it see the
	// same machine: on a shared machine the speed drifts by more than the targets' margins.
	moves, err := cfg.moves(ctx, c, false)
	if err != nil {
		return fmt.Errorf("moves: %w", err)
	}
	keyed, err := cfg.moves(ctx, c, true)
	if err != nil {
		return fmt.Errorf("moves with Idempotency-Key: %w", err)
	}
	health := func(ctx context.Context, d time.Duration) (*result, error) {
		return cfg.load(ctx, d, func(ctx context.Context, _ int, _ *rand.Rand) (time.Duration, error) {
			return timed(func() error { return c.do(ctx, "GET", "/healthz", "", nil, nil, nil) })
		})
	}
	// The CPU per move is metered when the server's /metrics shows its process CPU; a server
	// without the counter still gets the rest of the report. The CPU ratio's /healthz runs in
	// the moves' own rounds, so that both sides of it see the same machine.
	_, cpuErr := c.serverCPU(ctx)
	movePhases := []phase{moves, keyed}
	if cpuErr == nil {
		movePhases = []phase{metered(c, moves), metered(c, keyed), metered(c, health)}
	}
	if cfg.baseline != "" {
		base, err := cfg.moves(ctx, newBenchClient(cfg.baseline, cfg.clients), false)
		if err != nil {
			return fmt.Errorf("baseline moves: %w", err)
		}
		movePhases = append(movePhases, base)
	}
	mr, err := cfg.alternate(ctx, movePhases...)
	if err != nil {
		return err
	}
	baseline := mr[len(mr)-1]
	p("moves            %9.1f moves/s  p50 %s  p99 %s", mr[0].rate(), ms(mr[0].pct(50)), ms(mr[0].pct(99)))
	p("moves with key   %9.1f moves/s  p50 %s  p99 %s", mr[1].rate(), ms(mr[1].pct(50)), ms(mr[1].pct(99)))
	if cpuErr == nil {
		p("server CPU       %s per move (a state read and a move), %s with key, %s per /healthz meanwhile",
			ms(mr[0].cpuPerOp()), ms(mr[1].cpuPerOp()), msFine(mr[2].cpuPerOp()))
	} else {
		p("server CPU       not measured: %v", cpuErr)
	}
	if cfg.baseline != "" {
		p("moves, baseline  %9.1f moves/s  p50 %s  p99 %s", baseline.rate(), ms(baseline.pct(50)), ms(baseline.pct(99)))
	}

	hot, err := cfg.reads(ctx, c, cfg.hot)
	if err != nil {
		return fmt.Errorf("hot reads: %w", err)
	}
	spread, err := cfg.reads(ctx, c, cfg.spread)
	if err != nil {
		return fmt.Errorf("spread reads: %w", err)
	}
	// A /healthz is the least a request costs this server on this machine: two of them are the
	// floor under a move's CPU, which a machine's speed moves as much as the code does.
	if cpuErr == nil {
		health, hot = metered(c, health), metered(c, hot)
	}
	rr, err := cfg.alternate(ctx, health, hot, spread)
	if err != nil {
		return err
	}
	p("healthz          %9.1f req/s    p50 %s  p99 %s", rr[0].rate(), ms(rr[0].pct(50)), ms(rr[0].pct(99)))
	p("state, %5d hot  %9.1f req/s    p50 %s  p99 %s", cfg.hot, rr[1].rate(), ms(rr[1].pct(50)), ms(rr[1].pct(99)))
	p("state, %5d     %9.1f req/s    p50 %s  p99 %s", cfg.spread, rr[2].rate(), ms(rr[2].pct(50)), ms(rr[2].pct(99)))
	if cpuErr == nil {
		p("server CPU       %s per /healthz, %s per state read (hot)", msFine(rr[0].cpuPerOp()), msFine(rr[1].cpuPerOp()))
	}

	p("ratios (target):")
	p("  moves with key / moves          %5.2f  (>= 0.90)", mr[1].rate()/mr[0].rate())
	if cpuErr == nil {
		p("  server CPU per move             %s  (<= 0.25)", msFine(mr[0].cpuPerOp()))
		p("  server CPU per move / /healthz  %5.2f  (<= 5)", cpuRatio(mr[0], mr[2]))
	}
	p("  move p99 / p50                  %5.2f  (<= 3)", float64(mr[0].pct(99))/float64(mr[0].pct(50)))
	p("  state reads / healthz           %5.2f  (>= 0.90 on SQLite, 0.70 on PostgreSQL)", rr[1].rate()/rr[0].rate())
	p("  spread reads / hot reads        %5.2f  (>= 0.70)", rr[2].rate()/rr[1].rate())
	if cfg.baseline != "" {
		p("  moves / moves on %s  %5.2f  (>= 0.90 when it runs --sync off)", cfg.baseline, mr[0].rate()/baseline.rate())
	}
	return nil
}

func (cfg benchConfig) span() string {
	if cfg.ops > 0 {
		return fmt.Sprintf("%d operations per client and phase", cfg.ops)
	}
	return fmt.Sprintf("%s per phase in %d alternating rounds", cfg.duration, cfg.rounds)
}
