package bot

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/app/simulate"
)

// variants are the expert configurations measured against pimc while building it; the
// (docs/bots.md, "What paid") gives their results. The last one is NewExpert's.
var variants = map[string]struct {
	budget int
	opts   expertOpts
}{
	"x-base":    {2400, expertOpts{}},              // inference, match-aware, greedy playouts
	"x-uniform": {2400, expertOpts{uniform: true}}, // the same with PIMC's sampling
	"x-look":    {2400, expertOpts{look: true}},    // lookahead playouts
	"l-exact":   {2400, expertOpts{look: true, exact: exactNodes}},
	"l-b40":     {2400, expertOpts{look: true, beta: 0.4}},
	"l-unif":    {2400, expertOpts{look: true, uniform: true}},
	"l-nomatch": {2400, expertOpts{look: true, noMatch: true}},
	"l-all":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes}},
}

// TestExperiment plays two strategies or variants against each other in duplicate and logs
// the table: ALLFIVES_EXP="x-look,pimc" ALLFIVES_N=400 go test ./domain/bot -run Experiment -v.
// ALLFIVES_P sets the players (2), ALLFIVES_PART=1 partnerships. Without ALLFIVES_EXP it plays
// one deal sequence of the released expert against the first variant at a small budget, so
// the harness stays working.
func TestExperiment(t *testing.T) {
	a, b, ok := strings.Cut(os.Getenv("ALLFIVES_EXP"), ",")
	budget := 0 // each variant's own
	if !ok {
		a, b, budget = "l-all", "x-base", 120 // a small budget: the code paths are the same
	}
	n, _ := strconv.Atoi(os.Getenv("ALLFIVES_N"))
	players, _ := strconv.Atoi(os.Getenv("ALLFIVES_P"))
	s := Strategies(1)
	for name, v := range variants {
		if budget > 0 {
			v.budget = budget
		}
		s[name] = &Expert{seed: 1, rollouts: v.budget, opts: v.opts}
	}
	rep, err := simulate.Run(context.Background(), simulate.Config{
		Matches: max(n, 2), Players: max(players, 2), Partnerships: os.Getenv("ALLFIVES_PART") != "",
		Bots: []string{a, b}, Seed: []byte("exp"), Duplicate: true, Workers: 1, Strategies: s,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 {
		t.Fatalf("%d rows for two strategies", len(rep.Rows))
	}
	for _, r := range rep.Rows {
		if r.Matches < 2 || r.Wins > r.Matches {
			t.Fatalf("%s: %d wins of %d matches", r.Strategy, r.Wins, r.Matches)
		}
		lo, hi := r.Interval()
		t.Logf("%-10s %5d %5d %.1f%% [%.1f, %.1f] margin %.1f", r.Strategy, r.Matches, r.Wins, 100*r.WinRate(), 100*lo, 100*hi, r.MeanMargin())
	}
	t.Logf("elapsed %v", rep.Elapsed)
}
