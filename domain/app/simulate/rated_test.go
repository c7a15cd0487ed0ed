package simulate_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/simulate"
)

// rated runs a rated simulation of matches per format, on seed 1, and returns what it wrote.
func rated(t *testing.T, matches, runs int, formats ...ratings.Format) string {
	t.Helper()
	var out bytes.Buffer
	c := simulate.RatedConfig{Matches: matches, Formats: formats, Seed: []byte{0, 0, 0, 0, 0, 0, 0, 1}, Workers: 2, Points: 3, Runs: runs}
	if err := simulate.RunRated(context.Background(), c, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestRunRated: a rated simulation plays rated matches of distinct bots and writes each bot's
// rating as it settles, then a table with the model's intervals; the same seed writes the
// same ratings.
func TestRunRated(t *testing.T) {
	a, b := rated(t, 3, 1, ratings.Format2p), rated(t, 3, 1, ratings.Format2p)
	for _, want := range []string{"2p: 3 matches", "bot-random", "bot-expert", "bot-level-1", "bot-level-8", "95% interval of mu", "mean mu, 2nd half"} {
		if !strings.Contains(a, want) {
			t.Fatalf("output lacks %q:\n%s", want, a)
		}
	}
	_, ra, _ := strings.Cut(a, "are rated:")
	_, rb, _ := strings.Cut(b, "are rated:")
	if ra != rb {
		t.Fatalf("one seed, two outputs:\n%s\n%s", ra, rb)
	}
	for _, bad := range []simulate.RatedConfig{{Matches: 1, Workers: 1, Points: 1, Runs: 1}, {Formats: []ratings.Format{ratings.Format2p}, Workers: 1, Points: 1, Runs: 1}} {
		if err := simulate.RunRated(context.Background(), bad, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v ran", bad)
		}
	}
}

// TestRunRatedRuns: with Runs, a rated simulation plays independent runs, the first the very
// run it plays alone, and writes each bot's final mu per run and its mean over the runs.
func TestRunRatedRuns(t *testing.T) {
	alone, runs := rated(t, 3, 1, ratings.Format3p), rated(t, 3, 2, ratings.Format3p)
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
