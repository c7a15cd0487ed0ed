package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestSimulateRated: simulate --rated plays rated matches of distinct bots and prints each
// bot's rating as it settles, then a table with the model's intervals; the same seed prints
// the same ratings.
func TestSimulateRated(t *testing.T) {
	args := []string{"simulate", "--rated", "--matches", "3", "--formats", "2p", "--workers", "2", "--points", "3"}
	var a, b bytes.Buffer
	for _, out := range []*bytes.Buffer{&a, &b} {
		if err := run(context.Background(), args, func(string) string { return "" }, out); err != nil {
			t.Fatal(err)
		}
	}
	text := a.String()
	for _, want := range []string{"2p: 3 matches", "bot-random", "bot-expert", "bot-level-1", "bot-level-8", "95% interval of mu", "mean mu, 2nd half"} {
		if !strings.Contains(text, want) {
			t.Fatalf("output lacks %q:\n%s", want, text)
		}
	}
	_, ra, _ := strings.Cut(text, "are rated:")
	_, rb, _ := strings.Cut(b.String(), "are rated:")
	if ra != rb {
		t.Fatalf("one seed, two outputs:\n%s\n%s", ra, rb)
	}
	for _, bad := range [][]string{{"simulate", "--rated", "--formats", "5p"}, {"simulate", "--rated", "--matches", "0"}} {
		if err := run(context.Background(), bad, func(string) string { return "" }, &bytes.Buffer{}); err == nil {
			t.Errorf("%v ran", bad)
		}
	}
}

// TestSimulateRatedRuns: with --runs, simulate --rated plays independent runs, the first the
// very run it plays alone, and prints each bot's final mu per run and its mean over the runs.
func TestSimulateRatedRuns(t *testing.T) {
	sim := func(args ...string) string {
		var out bytes.Buffer
		args = append([]string{"simulate", "--rated", "--matches", "3", "--formats", "3p", "--workers", "2"}, args...)
		if err := run(context.Background(), args, func(string) string { return "" }, &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	alone, runs := sim(), sim("--runs", "2")
	for _, want := range []string{"3p: 2 runs of 3 matches each", "run 2 of 2:", "mean mu", "std. error", "mean mu, 2nd halves"} {
		if !strings.Contains(runs, want) {
			t.Fatalf("output lacks %q:\n%s", want, runs)
		}
	}
	_, perRun, _ := strings.Cut(runs, "each bot's mu at the end of each run:")
	rows := strings.Split(strings.TrimSpace(perRun), "\n")
	header, first, second := strings.Fields(rows[0]), strings.Fields(rows[1]), strings.Fields(rows[2])
	if first[0] != "1" || second[0] != "2" || len(first) != len(header) || len(second) != len(header) {
		t.Fatalf("per-run table:\n%s", perRun)
	}
	differ := false
	for i, b := range header[1:] {
		mu := "" // from the run alone's final table: bot, matches, wins, win rate, mu, ...
		for _, l := range strings.Split(alone, "\n") {
			if f := strings.Fields(l); len(f) > 4 && f[0] == b && strings.HasSuffix(f[3], "%") {
				mu = f[4]
			}
		}
		if first[i+1] != mu {
			t.Errorf("%s: run 1 ends at mu %s, the run alone at %q", b, first[i+1], mu)
		}
		differ = differ || first[i+1] != second[i+1]
	}
	if !differ {
		t.Error("the two runs ended alike: the second played the first's seeds")
	}
}
