package ratings_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/ratings"
)

var standingBase = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// rateAll rates logs in the order given, each ending a minute after the last, and returns the
// store's standings by player in format.
func rateAll(t *testing.T, matches [][]string, partners bool, scores func(i int) []int) map[string]ratings.Standing {
	t.Helper()
	s := newMemStore()
	for i, players := range matches {
		s.end(fmt.Sprintf("m%03d", i), ratedLog(players, partners, scores(i), standingBase.Add(time.Duration(i)*time.Minute)))
	}
	p := ratings.NewProjector(ratings.Config{Store: s, Logs: s, Batch: 7})
	if _, err := p.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := map[string]ratings.Standing{}
	all, _ := s.AllStandings(context.Background())
	for _, st := range all {
		out[st.Player] = st
	}
	return out
}

// TestStandingSybils: twenty fresh accounts that each lose a match to one account give it
// nothing: no match counts, so it has no standing at all, and neither have they.
func TestStandingSybils(t *testing.T) {
	var matches [][]string
	for i := range 20 {
		matches = append(matches, []string{"farmer", fmt.Sprintf("sybil%02d", i)})
	}
	got := rateAll(t, matches, false, func(int) []int { return []int{100, 0} })
	if len(got) != 0 {
		t.Fatalf("matches between new accounts left standings: %+v", got)
	}
}

// TestStandingAgainstBots: a player who plays the bots is established once enough of its
// matches were against them (ten, and sigma at most 6: the bots are new here too), whoever
// won; and then its own matches count for those it meets.
func TestStandingAgainstBots(t *testing.T) {
	bots := []string{"bot-random", "bot-greedy", "bot-pimc", "bot-expert"}
	var matches [][]string
	for i := range 24 {
		matches = append(matches, []string{"honest", bots[i%4]})
	}
	matches = append(matches, []string{"newcomer", "honest"})
	got := rateAll(t, matches, false, func(i int) []int { return []int{5 * (i % 3), 10} })
	h := got["honest"]
	if h.Matches != 24 || h.Established != 24 || h.Provisional() {
		t.Fatalf("the player who played the bots %+v is not established, or counted the newcomer", h)
	}
	if n := got["newcomer"]; n.Matches != 1 || n.Established != 1 {
		t.Fatalf("a match against the established player did not count for the newcomer: %+v", n)
	}
	for _, b := range bots { // each met the player while it was new, and later established
		if st := got[b]; st.Matches == 0 || st.Matches >= 24/4 || st.Established != st.Matches {
			t.Fatalf("%s counted %d of its %d matches against the player (%d established), want the later ones only", b, st.Matches, 24/4, st.Established)
		}
	}
}

// TestStandingTeams: in a match of partnerships a match counts when both opponents were
// established, whoever the partner is; in a free-for-all, when every other seat was. A match
// that does not count is in no figure of the standing.
func TestStandingTeams(t *testing.T) {
	// 2v2: seats 0 and 2 against 1 and 3. "solo" sits with a new partner against two bots,
	// then with a bot against a bot and a new player.
	got := rateAll(t, [][]string{
		{"solo", "bot-random", "partner", "bot-greedy"},
		{"solo", "bot-random", "bot-greedy", "stranger"},
	}, true, func(int) []int { return []int{100, 40} })
	if s := got["solo"]; s.Matches != 1 || s.Established != 1 {
		t.Fatalf("2v2: %+v, want one match of two counted", s)
	}
	if p := got["partner"]; p.Established != 1 {
		t.Fatalf("2v2: the new partner of two bots' opponents %+v", p)
	}
	// 3p: two bots and a new player; then three bots.
	got = rateAll(t, [][]string{
		{"solo", "bot-random", "fresh"},
		{"solo", "bot-random", "bot-greedy"},
	}, false, func(int) []int { return []int{100, 40, 20} })
	if s := got["solo"]; s.Matches != 1 || s.Established != 1 {
		t.Fatalf("3p: %+v, want one match of two counted", s)
	}
	if f, ok := got["fresh"]; ok {
		t.Fatalf("3p: a match with another new player counted: %+v", f)
	}
}
