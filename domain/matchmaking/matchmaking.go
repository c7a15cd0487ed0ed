package matchmaking

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Format is a kind of table: "2p", "3p", "4p" or "2v2" (two sides of two partners).
type Format string

// The formats a seek may ask for.
const (
	Format2p  Format = "2p"
	Format3p  Format = "3p"
	Format4p  Format = "4p"
	Format2v2 Format = "2v2"
)

// Seats is how many seats a table of format f has; 0 for a format that is none of these.
func Seats(f Format) int {
	switch f {
	case Format2p:
		return 2
	case Format3p:
		return 3
	case Format4p, Format2v2:
		return 4
	}
	return 0
}

// Seek is one player searching, as the rule sees it.
type Seek struct {
	ID     string
	Player string
	// Pool is what a compatible seek shares with it: its format, rated or not, its clock and
	// target, in one text (the caller's). Seeks of two pools never sit together.
	Pool   string
	Format Format
	// Rating is the player's displayed rating in Format.
	Rating float64
	// Since is when the seek began searching.
	Since time.Time
}

// Bot is a bot's player the rule may seat, with its rating in the format asked.
type Bot struct {
	Player string
	Rating float64
}

// Rule holds the parameters of the pairing rule (docs/matchmaking.md).
type Rule struct {
	// Window is the rating gap a new seek accepts.
	Window float64
	// Growth is how much the window widens per second of waiting.
	Growth float64
	// MaxWindow caps the window; 0 leaves it uncapped.
	MaxWindow float64
	// BotAfter is how long a seek waits for humans before bots fill its table; 0 never
	// seats bots.
	BotAfter time.Duration
}

// DefaultRule is serve's rule unless configured: a new seek accepts 2 rating points either
// way, widening by 1 a second up to 15; after 15 s the bots nearest in rating fill the table.
func DefaultRule() Rule {
	return Rule{Window: 2, Growth: 1, MaxWindow: 15, BotAfter: 15 * time.Second}
}

// WindowAt is the rating gap seek s accepts at now.
func (r Rule) WindowAt(s Seek, now time.Time) float64 {
	waited := max(0, now.Sub(s.Since).Seconds())
	w := r.Window + r.Growth*waited
	if r.MaxWindow > 0 {
		w = min(w, r.MaxWindow)
	}
	return max(0, w)
}

// Sitter is who takes one seat of a table: a seek's player, or a bot's.
type Sitter struct {
	// Seek is the seek's id; "" for a bot.
	Seek   string
	Player string
	Rating float64
}

// Bot says whether the seat goes to a bot.
func (s Sitter) Bot() bool { return s.Seek == "" }

// Table is one pairing: its seats in order (for 2v2, seats 0 and 2 are one side, 1 and 3 the
// other), and the window it was formed within: the smallest window, at that moment, of the
// seeks at it.
type Table struct {
	Pool   string
	Format Format
	Seats  []Sitter
	Window float64
}

// Spread is the gap between the highest and lowest rated humans at the table.
func (t Table) Spread() float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range t.Seats {
		if !s.Bot() {
			lo, hi = min(lo, s.Rating), max(hi, s.Rating)
		}
	}
	if lo > hi {
		return 0
	}
	return hi - lo
}

// Pair decides the tables the seeks make at now. bots gives the bots available for a format,
// with their ratings in it; of bots equally near, the first given sits first. Each seek sits at most once; no player sits twice at a table.
// Seeks are served oldest first: each takes, of the seeks it and they both accept, the
// closest-rated full table around it; failing that, once it has waited Rule.BotAfter, the
// closest seeks it can have and the nearest-rated bots for the other seats.
func Pair(seeks []Seek, bots func(Format) []Bot, now time.Time, r Rule) []Table {
	pools := map[string][]int{} // indexes into seeks, by pool
	var order []string
	for i, s := range seeks {
		if Seats(s.Format) == 0 {
			continue
		}
		if _, ok := pools[s.Pool]; !ok {
			order = append(order, s.Pool)
		}
		pools[s.Pool] = append(pools[s.Pool], i)
	}
	slices.Sort(order)
	var out []Table
	for _, p := range order {
		out = append(out, pairPool(seeks, pools[p], bots, now, r)...)
	}
	return out
}

// candidate is a seek of a pool with its window at the moment of pairing.
type candidate struct {
	Seek
	window float64
	taken  bool
}

// pairPool pairs the seeks of one pool (one format among them), those of seeks at idx.
func pairPool(seeks []Seek, idx []int, bots func(Format) []Bot, now time.Time, r Rule) []Table {
	all := make([]candidate, len(idx))
	byRating := make([]*candidate, len(idx))
	for i, j := range idx {
		all[i] = candidate{Seek: seeks[j], window: r.WindowAt(seeks[j], now)}
		byRating[i] = &all[i]
	}
	slices.SortFunc(byRating, func(a, b *candidate) int {
		return cmp.Or(cmp.Compare(a.Rating, b.Rating), cmp.Compare(a.ID, b.ID))
	})
	byAge := slices.Clone(byRating)
	slices.SortFunc(byAge, func(a, b *candidate) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.ID, b.ID))
	})
	var out []Table
	var near []*candidate // reused from seek to seek
	for _, anchor := range byAge {
		if anchor.taken {
			continue
		}
		n := Seats(anchor.Format)
		near = accepted(near[:0], byRating, anchor)
		group := fullTable(near, anchor, n)
		if group == nil && r.BotAfter > 0 && now.Sub(anchor.Since) >= r.BotAfter {
			group = partialTable(near, anchor, n)
		}
		if group == nil {
			continue
		}
		t, ok := seat(group, anchor, n, bots)
		if !ok {
			continue
		}
		for _, c := range group {
			c.taken = true
		}
		out = append(out, t)
	}
	return out
}

// accepted are the untaken seeks, anchor among them, that anchor accepts and that accept it,
// of players other than anchor's, in rating order, appended to out.
func accepted(out, byRating []*candidate, anchor *candidate) []*candidate {
	lo, _ := slices.BinarySearchFunc(byRating, anchor.Rating-anchor.window, func(c *candidate, v float64) int {
		return cmp.Compare(c.Rating, v)
	})
	for _, c := range byRating[lo:] {
		gap := c.Rating - anchor.Rating
		if gap > anchor.window {
			break
		}
		if c == anchor || (!c.taken && c.Player != anchor.Player && math.Abs(gap) <= c.window) {
			out = append(out, c)
		}
	}
	return out
}
