package matchmaking

import (
	"cmp"
	"math"
	"slices"
)

// fullTable is the n seeks of near (in rating order, anchor among them) around anchor whose
// spread is smallest and within the window of each, with no player twice; nil if none is.
func fullTable(near []*candidate, anchor *candidate, n int) []*candidate {
	at := slices.Index(near, anchor)
	var best []*candidate
	bestSpread := math.Inf(1)
	for lo := max(0, at-n+1); lo <= at && lo+n <= len(near); lo++ {
		group := near[lo : lo+n]
		spread := group[n-1].Rating - group[0].Rating
		if spread < bestSpread && fits(group, spread) {
			best, bestSpread = group, spread
		}
	}
	return slices.Clone(best)
}

// partialTable is anchor with the seeks of near it can sit with, nearest in rating first, as
// long as the spread stays within every window and a seat is left for a bot: the table a
// seek that waited long enough takes with bots.
func partialTable(near []*candidate, anchor *candidate, n int) []*candidate {
	others := slices.DeleteFunc(slices.Clone(near), func(c *candidate) bool { return c == anchor })
	slices.SortStableFunc(others, func(a, b *candidate) int {
		return cmp.Compare(math.Abs(a.Rating-anchor.Rating), math.Abs(b.Rating-anchor.Rating))
	})
	group := []*candidate{anchor}
	for _, c := range others {
		if len(group) == n-1 {
			break
		}
		next := append(slices.Clone(group), c)
		if fits(next, spreadOf(next)) {
			group = next
		}
	}
	return group
}

// fits says whether spread is within the window of every seek of group, and no player sits
// twice.
func fits(group []*candidate, spread float64) bool {
	for i, c := range group {
		if spread > c.window {
			return false
		}
		for _, d := range group[:i] {
			if d.Player == c.Player {
				return false
			}
		}
	}
	return true
}

func spreadOf(group []*candidate) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range group {
		lo, hi = min(lo, c.Rating), max(hi, c.Rating)
	}
	return hi - lo
}

// seat makes the table of group: the humans, then bots nearest anchor's rating for the seats
// left (each bot at most once; false when too few), in seats: for 2v2 the sides of most equal
// rating sums (seats 0 and 2 against 1 and 3), otherwise the humans by age, then the bots.
func seat(group []*candidate, anchor *candidate, n int, bots func(Format) []Bot) (Table, bool) {
	slices.SortStableFunc(group, func(a, b *candidate) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.ID, b.ID))
	})
	t := Table{Pool: anchor.Pool, Format: anchor.Format, Window: math.Inf(1)}
	for _, c := range group {
		t.Seats = append(t.Seats, Sitter{Seek: c.ID, Player: c.Player, Rating: c.Rating})
		t.Window = min(t.Window, c.window)
	}
	if missing := n - len(group); missing > 0 {
		if bots == nil {
			return Table{}, false
		}
		pick := nearestBots(bots(anchor.Format), anchor.Rating, missing, group)
		if len(pick) < missing {
			return Table{}, false
		}
		t.Seats = append(t.Seats, pick...)
	}
	if anchor.Format == Format2v2 {
		t.Seats = balance(t.Seats)
	}
	return t, true
}

// nearestBots are the n bots nearest rating, each once and none a player of group, nearest
// first (equal gaps: in the order given).
func nearestBots(all []Bot, rating float64, n int, group []*candidate) []Sitter {
	bots := slices.Clone(all)
	slices.SortStableFunc(bots, func(a, b Bot) int {
		return cmp.Compare(math.Abs(a.Rating-rating), math.Abs(b.Rating-rating))
	})
	var out []Sitter
	seen := map[string]bool{}
	for _, c := range group {
		seen[c.Player] = true
	}
	for _, b := range bots {
		if len(out) == n {
			break
		}
		if !seen[b.Player] {
			seen[b.Player] = true
			out = append(out, Sitter{Player: b.Player, Rating: b.Rating})
		}
	}
	return out
}

// balance seats four sitters as two sides of two whose rating sums differ least: of the three
// ways to split four, the first (in the order sitters came) of smallest difference. The first
// sitter keeps seat 0.
func balance(s []Sitter) []Sitter {
	if len(s) != 4 {
		return s
	}
	splits := [][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}} // partners: [0],[1] vs [2],[3]
	best, bestGap := splits[0], math.Inf(1)
	for _, sp := range splits {
		gap := math.Abs(s[sp[0]].Rating + s[sp[1]].Rating - s[sp[2]].Rating - s[sp[3]].Rating)
		if gap < bestGap {
			best, bestGap = sp, gap
		}
	}
	return []Sitter{s[best[0]], s[best[2]], s[best[1]], s[best[3]]}
}

// SideGap is a 2v2 table's difference between its sides' rating sums (seats 0+2 against
// 1+3); 0 for other formats.
func (t Table) SideGap() float64 {
	if t.Format != Format2v2 || len(t.Seats) != 4 {
		return 0
	}
	return math.Abs(t.Seats[0].Rating + t.Seats[2].Rating - t.Seats[1].Rating - t.Seats[3].Rating)
}
