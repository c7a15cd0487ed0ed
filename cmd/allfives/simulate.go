package main

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/allfives/allfives/domain/app/simulate"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/sqlite"
)

// runSimulate plays matches between bots in-process and prints a table per strategy. Without
// --db nothing is stored; with it every match goes through the service into that database,
// where the API can replay it.
func runSimulate(ctx context.Context, args []string, _ func(string) string, stdout io.Writer) (err error) {
	if isRated(args) {
		return runSimulateRated(ctx, args, stdout) // simulate_rated.go
	}
	c, opts, err := parseSimulate(args, stdout)
	if err != nil {
		return helpOK(err)
	}
	if opts.db != "" {
		// Not store, err := ...: a shadowed err would swallow the error of closing.
		var store *sqlite.Store
		if store, err = sqlite.Open(ctx, opts.db, sqlite.Options{Sync: opts.sync}); err != nil {
			return err
		}
		defer closeStore(store, &err)
		c.Store = store
	}
	fmt.Fprintf(stdout, "allfives simulate: seed %s, %s", opts.seed, count(c.Workers, "worker", "workers"))
	if opts.db != "" {
		fmt.Fprintf(stdout, ", storing matches in %s", opts.db)
	}
	fmt.Fprintln(stdout)
	bar := newProgress(stdout)
	c.Progress = bar.update
	rep, err := simulate.Run(ctx, c)
	bar.done()
	if err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	fmt.Fprintln(stdout)
	return rep.Format(stdout)
}

// simulateOptions are the flags that are not part of the tournament itself.
type simulateOptions struct {
	seed string
	db   string
	sync string
}

func parseSimulate(args []string, out io.Writer) (simulate.Config, simulateOptions, error) {
	fs := flag.NewFlagSet("allfives simulate", flag.ContinueOnError)
	fs.SetOutput(out)
	matches := fs.Int("matches", 100, "matches to play (in duplicate mode, rounded up to whole deal sequences)")
	players := fs.Int("players", 2, "players per match: 2, 3 or 4")
	partners := fs.Bool("partnerships", false, "4 players in two partnerships (seats 0+2 against 1+3)")
	bots := fs.String("bots", "expert,greedy", "strategy per seat, comma-separated, repeated to fill the table: "+strings.Join(bot.AllNames(), ", "))
	seed := fs.String("seed", "1", "tournament seed, an integer (decimal or 0x hex) or a hex string; the same seed replays the same tournament")
	duplicate := fs.Bool("duplicate", false, "play each deal sequence again with the seats rotated, so every strategy plays every deal from every seat")
	workers := fs.Int("workers", runtime.NumCPU(), "matches played at once")
	target := fs.Int("target", 0, "score that ends a match (a multiple of 5); 0 for the table's default")
	db := fs.String("db", "", "SQLite file to store the matches in, replayable through the API; empty stores nothing")
	fs.Bool("rated", false, "rate matches of the bots (the four and the levels) instead, format by format (see allfives simulate --rated -h)")
	sync := fs.String("sync", "normal", "durability for --db: full, normal or off")
	if err := fs.Parse(args); err != nil {
		return simulate.Config{}, simulateOptions{}, err
	}
	if fs.NArg() > 0 {
		return simulate.Config{}, simulateOptions{}, fmt.Errorf("simulate: unexpected argument %q", fs.Arg(0))
	}
	material, err := parseSeed(*seed)
	if err != nil {
		return simulate.Config{}, simulateOptions{}, err
	}
	if *workers < 1 {
		return simulate.Config{}, simulateOptions{}, fmt.Errorf("simulate: workers must be at least 1")
	}
	if err := checkSync(*sync); err != nil {
		return simulate.Config{}, simulateOptions{}, err
	}
	c := simulate.Config{
		Matches: *matches, Players: *players, Partnerships: *partners, Bots: splitList(*bots),
		Seed: material, Duplicate: *duplicate, Workers: *workers, Target: *target,
		Strategies: bot.Strategies(simulate.BotSeed(material)),
	}
	if err := c.Check(); err != nil {
		return simulate.Config{}, simulateOptions{}, fmt.Errorf("simulate: %w", err)
	}
	return c, simulateOptions{seed: *seed, db: *db, sync: *sync}, nil
}

// parseSeed reads an integer (strconv base 0: decimal, 0x hex, ...) as its 8 big-endian bytes,
// or else a string of hex digits as its bytes.
func parseSeed(s string) ([]byte, error) {
	if n, err := strconv.ParseUint(s, 0, 64); err == nil {
		return binary.BigEndian.AppendUint64(nil, n), nil
	}
	b, err := hex.DecodeString(strings.TrimPrefix(strings.ToLower(s), "0x"))
	if err != nil || len(b) == 0 {
		return nil, fmt.Errorf("simulate: seed %q is neither an integer nor hex", s)
	}
	return b, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// progress shows how far the tournament is: a bar redrawn in place on a terminal, otherwise a
// line at every tenth, so logs and pipes stay readable.
type progress struct {
	out      io.Writer
	terminal bool
	start    time.Time
	last     time.Time
	tenth    int
	drawn    bool
}

func newProgress(out io.Writer) *progress {
	p := &progress{out: out, start: time.Now()}
	if f, ok := out.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

func (p *progress) update(done, total int) {
	now := time.Now()
	rate := float64(done) / max(now.Sub(p.start).Seconds(), 1e-9)
	if !p.terminal {
		if t := done * 10 / total; t > p.tenth {
			p.tenth = t
			fmt.Fprintf(p.out, "%d/%d matches (%d%%), %.1f matches/s\n", done, total, 100*done/total, rate)
		}
		return
	}
	if done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.drawn = now, true
	const width = 30
	fill := done * width / total
	fmt.Fprintf(p.out, "\r[%s%s] %d/%d matches, %.1f/s ", strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total, rate)
}

// done ends the bar's line so the report starts on a fresh one.
func (p *progress) done() {
	if p.drawn {
		fmt.Fprintln(p.out)
	}
}
