package simulate_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/simulate"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
)

// strategies are the three bots by name.
func strategies() map[string]domain.Strategy {
	s := bot.Strategies(1)
	s[bot.NameExpert] = bot.NewExpert(1, 40) // cheap: these tests are about the engine
	return s
}

// config is a duplicate 3-player simulation of the three bots.
func config(matches, workers int) simulate.Config {
	return simulate.Config{
		Matches: matches, Players: 3, Bots: []string{"expert", "greedy", "random"},
		Seed: []byte{1, 2, 3}, Duplicate: true, Workers: workers, Strategies: strategies(),
	}
}

// results strips a report to what the matches decided (not how long they took).
func results(r *simulate.Report) []simulate.Row {
	var out []simulate.Row
	for _, row := range r.Rows {
		c := *row
		c.Choices = nil
		out = append(out, c)
	}
	return out
}

// TestSameResultsWhateverTheWorkers: the number of workers changes how long a simulation
// takes, never its results.
func TestSameResultsWhateverTheWorkers(t *testing.T) {
	one, err := simulate.Run(context.Background(), config(12, 1))
	if err != nil {
		t.Fatal(err)
	}
	three, err := simulate.Run(context.Background(), config(12, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(results(one), results(three)) || !reflect.DeepEqual(one.Sweeps, three.Sweeps) {
		t.Fatalf("1 worker: %+v\n3 workers: %+v", results(one), results(three))
	}
	if one.Matches != 12 || one.Deals != 4 || one.Seatings != 3 {
		t.Fatalf("played %d matches of %d deals x %d seatings, want 12 = 4 x 3", one.Matches, one.Deals, one.Seatings)
	}
}

// TestStoredMatchesMatchDirectOnes runs the same simulation on the aggregate and through the
// service into a store: the results agree, and every stored match replays to its end.
func TestStoredMatchesMatchDirectOnes(t *testing.T) {
	direct, err := simulate.Run(context.Background(), config(6, 2))
	if err != nil {
		t.Fatal(err)
	}
	store := memstore.New()
	c := config(6, 2)
	c.Store = store
	stored, err := simulate.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(results(direct), results(stored)) {
		t.Fatalf("direct: %+v\nstored: %+v", results(direct), results(stored))
	}
	page, err := store.History(context.Background(), referee.HistoryQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Matches) != 6 {
		t.Fatalf("store holds %d matches, want 6", len(page.Matches))
	}
	for _, item := range page.Matches {
		events, err := store.Events(context.Background(), item.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, err := domain.Rebuild(item.ID, events)
		if err != nil || !m.Finished() {
			t.Fatalf("match %s does not replay to its end: %v", item.ID, err)
		}
	}
}

// illegal always plays the last tile of its hand on the right, legal or not.
type illegal struct{}

// Choose ignores the legal moves.
func (illegal) Choose(_ context.Context, v domain.SeatView) (domain.Move, error) {
	return domain.Play(v.Hand[len(v.Hand)-1], domain.Right), nil
}

// TestIllegalMovesStopTheTournament: an illegal move fails the run, on the aggregate and
// through the service alike (the service would otherwise quietly replace it).
func TestIllegalMovesStopTheTournament(t *testing.T) {
	for _, store := range []referee.EventStore{nil, memstore.New()} {
		c := simulate.Config{
			Matches: 4, Players: 2, Bots: []string{"cheat", "greedy"}, Seed: []byte("x"),
			Strategies: map[string]domain.Strategy{"cheat": illegal{}, "greedy": bot.NewGreedy()}, Store: store,
		}
		if _, err := simulate.Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "illegal move") {
			t.Errorf("store %T: got %v, want an illegal move error", store, err)
		}
	}
}

// TestSeatings: duplicate mode plays each distinct rotation of the lineup once.
func TestSeatings(t *testing.T) {
	for _, tc := range []struct {
		players      int
		partnerships bool
		bots         string
		duplicate    bool
		want         int
	}{
		{2, false, "a,b", true, 2},
		{2, false, "a,b", false, 1},
		{3, false, "a,b", true, 3},
		{4, true, "a,b", true, 2},
		{4, false, "a,b,c,d", true, 4},
		{4, false, "a", true, 1},
	} {
		c := simulate.Config{Players: tc.players, Partnerships: tc.partnerships, Bots: strings.Split(tc.bots, ","), Duplicate: tc.duplicate}
		if got := c.Seatings(); len(got) != tc.want {
			t.Errorf("%+v: %d seatings %v, want %d", tc, len(got), got, tc.want)
		}
	}
}

// TestWilson checks the interval against published values.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{1800, 2000, 0.8860, 0.9125},
	} {
		lo, hi := simulate.Wilson(tc.k, tc.n, 1.959964)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = %.4f, %.4f; want %.4f, %.4f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestFormat: the report names the mode, the columns and every strategy.
func TestFormat(t *testing.T) {
	rep, err := simulate.Run(context.Background(), config(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.Format(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 matches (1 deal sequences x 3 seatings, duplicate)", "win rate", "95% CI", "expert", "greedy", "random", "matches/s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestBadConfig: a configuration the rules or the strategies cannot serve is an error, and
// so is a cancelled context.
func TestBadConfig(t *testing.T) {
	for _, c := range []simulate.Config{
		{Matches: 1, Players: 5, Bots: []string{"greedy"}},
		{Matches: 1, Players: 3, Partnerships: true, Bots: []string{"greedy"}},
		{Matches: 0, Players: 2, Bots: []string{"greedy"}},
		{Matches: 1, Players: 2, Bots: []string{"nobody"}},
		{Matches: 1, Players: 2, Bots: []string{"greedy"}, Target: 7},
	} {
		c.Strategies = strategies()
		if _, err := simulate.Run(context.Background(), c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := simulate.Run(ctx, config(4, 2)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}

// BenchmarkGreedyMatch is simulate's throughput on one core: one op is one whole 2-player
// match of greedy against greedy, played on the aggregate.
func BenchmarkGreedyMatch(b *testing.B) {
	c := simulate.Config{
		Matches: b.N, Players: 2, Bots: []string{"greedy"}, Seed: []byte("bench"),
		Workers: 1, Strategies: bot.Strategies(1),
	}
	b.ResetTimer()
	rep, err := simulate.Run(context.Background(), c)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(rep.Matches)/b.Elapsed().Seconds(), "matches/s")
}
