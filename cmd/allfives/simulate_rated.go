package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/simulate"
)

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

// parseSimulateRated reads simulate --rated's flags into the simulation's configuration, and
// returns the seed as given, for the header.
func parseSimulateRated(args []string, out io.Writer) (simulate.RatedConfig, string, error) {
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
		return simulate.RatedConfig{}, "", err
	}
	if fs.NArg() > 0 {
		return simulate.RatedConfig{}, "", fmt.Errorf("simulate: unexpected argument %q", fs.Arg(0))
	}
	material, err := parseSeed(*seed)
	if err != nil {
		return simulate.RatedConfig{}, "", err
	}
	c := simulate.RatedConfig{Matches: *matches, Seed: material, Workers: *workers, Points: *points, Runs: *runs}
	for _, f := range splitList(*formats) {
		format, ok := ratings.ParseFormat(f)
		if !ok {
			return simulate.RatedConfig{}, "", fmt.Errorf("simulate: format %q is not 2p, 3p, 4p or 2v2", f)
		}
		c.Formats = append(c.Formats, format)
	}
	if err := c.Check(); err != nil {
		return simulate.RatedConfig{}, "", fmt.Errorf("simulate: %w", err)
	}
	return c, *seed, nil
}

// runSimulateRated is simulate --rated: the rated matches of the bots, format by format, as
// simulate.RunRated plays and prints them.
func runSimulateRated(ctx context.Context, args []string, stdout io.Writer) error {
	c, seed, err := parseSimulateRated(args, stdout)
	if err != nil {
		return helpOK(err)
	}
	fmt.Fprintf(stdout, "allfives simulate --rated: seed %s, %s per format, %s\n", seed, count(c.Matches, "match", "matches"), count(c.Workers, "worker", "workers"))
	return simulate.RunRated(ctx, c, stdout)
}
