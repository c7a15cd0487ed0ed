package bot

import (
	"testing"

	"github.com/allfives/allfives/domain"
)

// TestEquityOrdersOutcomes: given finished two-player hands, then a larger lead is worth more,
// the same lead is worth more near the target than far from it, and a match won is worth
// more than any hand that leaves it open.
func TestEquityOrdersOutcomes(t *testing.T) {
	table, err := domain.NewTable(2, false)
	if err != nil {
		t.Fatal(err)
	}
	hand := func(mine, theirs int, state simState) int {
		g := newSim(table, []int{mine, theirs}, 250)
		g.state, g.winner = state, 0
		g.equity = true
		return outcome(&g, 0)
	}
	if !(hand(60, 40, blockedOut) > hand(50, 40, blockedOut) && hand(50, 40, blockedOut) > hand(40, 50, blockedOut)) {
		t.Error("a larger lead is not worth more")
	}
	if !(hand(230, 210, blockedOut) > hand(30, 10, blockedOut)) {
		t.Error("a lead near the target is not worth more than far from it")
	}
	if !(hand(250, 240, matchOver) > hand(245, 240, blockedOut)) || hand(250, 0, matchOver) < equityScale {
		t.Error("a match won is not worth the most")
	}
	if v := hand(40, 40, blockedOut); v != 0 {
		t.Errorf("an even match is worth %d, want 0", v)
	}
}

// TestEquitySlope: equitySlope is what equityValue gains for a point more to the side, at
// the score given, for two and three sides, near and far from the target, leading and behind.
func TestEquitySlope(t *testing.T) {
	for _, c := range []struct {
		players int
		scores  []int
		target  int
	}{
		{2, []int{0, 0}, 250}, {2, []int{120, 150}, 250}, {2, []int{200, 185}, 250}, {2, []int{60, 180}, 250},
		{3, []int{40, 70, 20}, 200}, {3, []int{150, 140, 170}, 200},
	} {
		table, err := domain.NewTable(c.players, false)
		if err != nil {
			t.Fatal(err)
		}
		value := func(gain int) float64 {
			g := newSim(table, c.scores, c.target)
			g.score[0] += int32(gain)
			g.gained[0] += int32(gain)
			g.state, g.winner = blockedOut, -1
			return float64(equityValue(&g, 0))
		}
		numeric := (value(3) - value(-3)) / 6
		got := equitySlope(c.scores, 0, c.target)
		if d := got - numeric; d < -0.1*numeric-0.5 || d > 0.1*numeric+0.5 {
			t.Errorf("%v to %d: equitySlope %.2f, equityValue gains %.2f a point", c.scores, c.target, got, numeric)
		}
	}
}
