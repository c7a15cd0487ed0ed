package ratings_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/openskill"
)

// established is a standing that is not provisional: the projection's own rule.
func established(player string, f ratings.Format, mu float64) ratings.Standing {
	st := ratings.Standing{Player: player, Format: f, Rating: openskill.Rating{Mu: mu, Sigma: 4}, Matches: 12, Wins: 6, Established: 12}
	if st.Provisional() {
		panic("the established standing of the tests is provisional")
	}
	return st
}

// rateOne rates one match of players (partners: seats 0 and 2 against 1 and 3) whose side
// scores are scores, on the standings before.
func rateOne(t *testing.T, players []string, partners bool, scores []int, before ...ratings.Standing) ([]ratings.Change, []ratings.Standing) {
	t.Helper()
	res, ok, err := ratings.ResultOf("m", ratedLog(players, partners, scores, standingBase))
	if err != nil || !ok {
		t.Fatalf("result: %v %v", ok, err)
	}
	byPlayer := map[string]ratings.Standing{}
	for _, st := range before {
		byPlayer[st.Player] = st
	}
	changes, standings, err := ratings.RateStanding(openskill.Default(), res, byPlayer)
	if err != nil {
		t.Fatal(err)
	}
	return changes, standings
}

// checkCounted checks which players the match counted for: their changes moved and say so,
// and they alone have a standing after, one match more; the others' changes are their
// rating before, recorded, and counted nowhere.
func checkCounted(t *testing.T, changes []ratings.Change, standings []ratings.Standing, counted ...string) {
	t.Helper()
	for _, c := range changes {
		want := slices.Contains(counted, c.Player)
		if c.Counted() != want || c.AgainstEstablished != want || (c.After != c.Before) != want {
			t.Errorf("%s: counted %v, before %v after %v; want counted %v", c.Player, c.Counted(), c.Before, c.After, want)
		}
	}
	var got []string
	for _, st := range standings {
		got = append(got, st.Player)
	}
	want := slices.Clone(counted)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("standings after the match for %v, want %v", got, want)
	}
}

// TestCountedTwoNewPlayers: a result between two provisional players moves neither, and
// leaves each its rating before (a new player's prior) and whether it won.
func TestCountedTwoNewPlayers(t *testing.T) {
	changes, standings := rateOne(t, []string{"m", "f"}, false, []int{250, 0})
	checkCounted(t, changes, standings)
	prior := openskill.Default().New()
	if changes[0].Before != prior || !changes[0].Won || changes[1].Won {
		t.Fatalf("changes %+v", changes)
	}
}

// TestCountedOneEstablished: between an established player and a provisional one, the result
// moves the provisional player only, in every figure; whoever wins. A bot is established
// whatever its standing, and has none here.
func TestCountedOneEstablished(t *testing.T) {
	for _, opp := range []string{"e", "bot-greedy"} {
		for _, newWins := range []bool{true, false} {
			scores := []int{0, 250}
			if newWins {
				scores = []int{250, 0}
			}
			changes, standings := rateOne(t, []string{"n", opp}, false, scores, established("e", ratings.Format2p, 30))
			checkCounted(t, changes, standings, "n")
			if n := standings[0]; n.Matches != 1 || n.Established != 1 || (n.Wins == 1) != newWins || (n.Rating.Mu > 25) != newWins {
				t.Errorf("against %s, won %v: the new player's standing %+v", opp, newWins, n)
			}
		}
	}
	// Two bots, and two established players, move each other.
	changes, standings := rateOne(t, []string{"bot-random", "bot-greedy"}, false, []int{250, 0})
	checkCounted(t, changes, standings, "bot-random", "bot-greedy")
	changes, standings = rateOne(t, []string{"a", "b"}, false, []int{250, 0}, established("a", ratings.Format2p, 30), established("b", ratings.Format2p, 20))
	checkCounted(t, changes, standings, "a", "b")
	if a := standings[0]; a.Matches != 13 || a.Wins != 7 || a.Established != 13 {
		t.Fatalf("an established player's standing after a counted win: %+v", a)
	}
}

// TestCountedTables: with more than two sides, or partnerships, a match counts for a player
// when every player of every other side was established; the partner does not matter. One
// provisional opponent at the table and the match moves nothing of the player's.
func TestCountedTables(t *testing.T) {
	e1, e2 := established("e1", ratings.Format3p, 27), established("e2", ratings.Format3p, 24)
	changes, standings := rateOne(t, []string{"e1", "e2", "n"}, false, []int{200, 100, 0}, e1, e2)
	checkCounted(t, changes, standings, "n")
	changes, standings = rateOne(t, []string{"e1", "e2", "bot-pimc"}, false, []int{200, 100, 0}, e1, e2)
	checkCounted(t, changes, standings, "e1", "e2", "bot-pimc")

	e := established("e", ratings.Format4p, 30)
	changes, standings = rateOne(t, []string{"e", "n1", "n2", "bot-expert"}, false, []int{200, 0, 0, 50}, e)
	checkCounted(t, changes, standings)
	changes, standings = rateOne(t, []string{"n1", "e", "bot-random", "bot-expert"}, false, []int{200, 0, 0, 50}, e)
	checkCounted(t, changes, standings, "n1")

	// 2v2: seats 0 and 2 against 1 and 3.
	p, q := established("p", ratings.Format2v2, 30), established("q", ratings.Format2v2, 20)
	changes, standings = rateOne(t, []string{"p", "bot-random", "n", "bot-greedy"}, true, []int{250, 100}, p)
	checkCounted(t, changes, standings, "p", "n") // a new partner: both count; the bots met n
	changes, standings = rateOne(t, []string{"p", "n", "q", "bot-greedy"}, true, []int{250, 100}, p, q)
	checkCounted(t, changes, standings, "n", "bot-greedy") // n across the table: p and q do not count
}

// TestFarmBuysNothingInTheProjection is the farm of docs/ratings.md's I6 in the projection: twenty
// fresh accounts resign to M, then M and an honest H each lose ten matches to the bots. M's
// standing is H's to the last bit: the twenty wins bought nothing, not even a figure.
func TestFarmBuysNothingInTheProjection(t *testing.T) {
	var matches [][]string
	for i := range 20 {
		matches = append(matches, []string{fmt.Sprintf("fresh%02d", i), "m"})
	}
	bots := []string{"bot-random", "bot-greedy", "bot-pimc", "bot-expert"}
	for i := range 10 {
		matches = append(matches, []string{"m", bots[i%4]}, []string{"h", bots[i%4]})
	}
	got := rateAll(t, matches, false, func(int) []int { return []int{0, 250} })
	m, h := got["m"], got["h"]
	m.Player = h.Player
	if m != h || m.Matches != 10 {
		t.Fatalf("M %+v, H %+v", got["m"], h)
	}
	for _, b := range bots {
		if st, ok := got[b]; ok {
			t.Fatalf("a bot's standing moved against provisional players: %+v", st)
		}
	}
}

// TestCountedAtTheTime: a match counts against an opponent who was established just before it
// in the order of ends, whatever the order the ends reach the projection: the live table,
// rewinds and all, is the rebuild's, and the newcomer's match that ended a moment before its
// opponent's last match to establish it did not count, and the one a moment after did.
func TestCountedAtTheTime(t *testing.T) {
	// How many matches lost to the bots make "p" established, the bots being new too.
	n, before := 0, map[string]ratings.Standing{}
	for ; n == 0 || before["p"].Provisional(); n++ {
		res, _, _ := ratings.ResultOf("m", ratedLog([]string{"p", "bot-greedy"}, false, []int{0, 250}, standingBase))
		_, sts, err := ratings.RateStanding(openskill.Default(), res, before)
		if err != nil || n > 100 {
			t.Fatalf("after %d matches: %v", n, err)
		}
		before["p"] = sts[0]
	}
	type ended struct {
		id      string
		players []string
		at      time.Time
	}
	var all []ended
	for i := range n {
		all = append(all, ended{fmt.Sprintf("b%02d", i), []string{"p", "bot-greedy"}, standingBase.Add(time.Duration(i) * time.Minute)})
	}
	last := all[n-1].at
	early := ended{"early", []string{"newcomer", "p"}, last.Add(-time.Second)}
	late := ended{"late", []string{"other", "p"}, last.Add(time.Second)}
	all = append(all, early, late)
	rewinds := int64(0)
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 2))
		s := newMemStore()
		p := ratings.NewProjector(ratings.Config{Store: s, Logs: s, Batch: 1 + rng.IntN(4)})
		for _, i := range rng.Perm(len(all)) {
			e := all[i]
			s.end(e.id, ratedLog(e.players, false, []int{250, 0}, e.at))
			if rng.IntN(2) == 0 {
				if _, err := p.RunOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := p.Drain(context.Background()); err != nil {
			t.Fatal(err)
		}
		rewinds += p.Rewinds()
		rebuilt, err := p.Rebuild(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		live, _ := s.AllStandings(context.Background())
		changes, _ := s.AllChanges(context.Background())
		if !slices.Equal(live, rebuilt.Standings) || !slices.EqualFunc(changes, rebuilt.Changes, func(a, b ratings.Change) bool { return a == b }) {
			t.Fatalf("seed %d: live %+v\nrebuilt %+v", seed, live, rebuilt.Standings)
		}
		for _, c := range changes {
			if c.Player == "newcomer" && c.Counted() || c.Player == "other" && !c.Counted() || c.Player == "p" && (c.MatchID == "early" || c.MatchID == "late") && c.Counted() {
				t.Fatalf("seed %d: %+v", seed, c)
			}
		}
		if !slices.ContainsFunc(live, func(st ratings.Standing) bool { return st.Player == "other" }) ||
			slices.ContainsFunc(live, func(st ratings.Standing) bool { return st.Player == "newcomer" }) {
			t.Fatalf("seed %d: standings %+v", seed, live)
		}
	}
	if rewinds == 0 {
		t.Fatal("no rewind: the ends should have reached the projection out of order")
	}
}
