package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlite"
)

// simulateCLI runs allfives simulate with args and no environment.
func simulateCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), append([]string{"simulate"}, args...), func(string) string { return "" }, &out)
	return out.String(), err
}

// TestSimulateReportsPerStrategy: the header, the progress lines, the table and the footer
// are all in the output.
func TestSimulateReportsPerStrategy(t *testing.T) {
	out, err := simulateCLI(t, "--matches", "8", "--bots", "greedy,random", "--duplicate", "--workers", "2", "--seed", "0x2a")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"seed 0x2a, 2 workers",
		"8/8 matches (100%)", // progress, as lines since the output is not a terminal
		"8 matches (4 deal sequences x 2 seatings, duplicate), 2 players",
		"win rate", "95% CI", "points/hand", "mean margin",
		"greedy", "random", "duplicate: of 4 deal sequences", "matches/s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestSimulateIsRepeatable: the same seed, written two ways, plays the same matches.
func TestSimulateIsRepeatable(t *testing.T) {
	table := func(seed string) string {
		out, err := simulateCLI(t, "--matches", "6", "--players", "3", "--bots", "expert,greedy,random", "--seed", seed, "--target", "60", "--workers", "1")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var rows []string
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 7 && (f[0] == "expert" || f[0] == "greedy" || f[0] == "random") {
				rows = append(rows, strings.Join(f[:len(f)-2], " ")) // without the timings
			}
		}
		return strings.Join(rows, "\n")
	}
	a, b := table("17"), table("0x11")
	if a == "" || a != b {
		t.Fatalf("seed 17:\n%s\nseed 0x11:\n%s", a, b)
	}
}

// TestSimulateStoresMatches: with --db every match is in the database, finished, and its log
// replays to its end.
func TestSimulateStoresMatches(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sim.db")
	out, err := simulateCLI(t, "--matches", "4", "--players", "4", "--partnerships", "--bots", "greedy,random", "--db", db, "--workers", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ctx := context.Background()
	store, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	page, err := store.History(ctx, referee.HistoryQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Matches) != 4 {
		t.Fatalf("%d matches stored, want 4", len(page.Matches))
	}
	for _, item := range page.Matches {
		events, err := store.Events(ctx, item.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, err := domain.Rebuild(item.ID, events)
		if err != nil || !m.Finished() || item.Summary.Status != domain.StatusFinished {
			t.Fatalf("match %s: %v, finished %v, status %s", item.ID, err, m != nil && m.Finished(), item.Summary.Status)
		}
	}
}

// TestSimulateRejectsBadFlags: a bad flag is an error before anything is printed, and before
// the database named by --db is created.
func TestSimulateRejectsBadFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "never.db")
	for _, args := range [][]string{
		{"--players", "5"},
		{"--players", "3", "--partnerships"},
		{"--bots", "nobody"},
		{"--seed", "zz"},
		{"--workers", "0"},
		{"--matches", "0"},
		{"--target", "7"},
		{"--sync", "sometimes"},
		{"extra"},
	} {
		out, err := simulateCLI(t, append(args, "--db", db)...)
		if err == nil || out != "" {
			t.Errorf("%v: error %v, output\n%s", args, err, out)
		}
		if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%v: the database was created (%v)", args, err)
		}
	}
	if out, err := simulateCLI(t, "-h"); err != nil || !strings.Contains(out, "-duplicate") {
		t.Errorf("-h: %v\n%s", err, out)
	}
}

// TestSimulateRatedFlags: simulate --rated prints its header and the simulation's tables, and
// refuses a format it does not know and a count of matches below 1.
func TestSimulateRatedFlags(t *testing.T) {
	out, err := simulateCLI(t, "--rated", "--matches", "2", "--formats", "2p", "--workers", "1", "--points", "1")
	if err != nil || !strings.HasPrefix(out, "allfives simulate --rated: seed 1, 2 matches per format, 1 worker\n\n2p: 2 matches in ") {
		t.Errorf("simulate --rated: %v\n%s", err, out)
	}
	for _, bad := range [][]string{{"--rated", "--formats", "5p"}, {"--rated", "--matches", "0"}} {
		if out, err := simulateCLI(t, bad...); err == nil || out != "" {
			t.Errorf("%v: error %v, output\n%s", bad, err, out)
		}
	}
}

// TestParseSeed: integers become 8 bytes, written in decimal or hex alike; hex strings
// become their bytes.
func TestParseSeed(t *testing.T) {
	for in, want := range map[string]int{"1": 8, "0x1": 8, "18446744073709551615": 8, "deadbeefdeadbeefdeadbeef": 12} {
		b, err := parseSeed(in)
		if err != nil || len(b) != want {
			t.Errorf("parseSeed(%q) = %x, %v; want %d bytes", in, b, err, want)
		}
	}
	one, _ := parseSeed("1")
	hexOne, _ := parseSeed("0x1")
	if !bytes.Equal(one, hexOne) {
		t.Error("1 and 0x1 are different seeds")
	}
}
