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
