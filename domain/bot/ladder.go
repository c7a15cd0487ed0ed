package bot

import (
	"cmp"
	"slices"
)

// ladderFormats are the formats of ladder's columns, in order.
var ladderFormats = [4]string{"2p", "3p", "4p", "2v2"}

// ladder is each strategy's displayed rating (mu - 3 sigma) in each format of ladderFormats,
// as the ladder of docs/bots.md ("The levels' ratings") has it: the mean over independent runs
// of 1,000 rated matches of the twelve strategies, seed 1, 8 runs in 2p and 12 in the others.
// It is a figure measured once and written down, not a rating: a rating comes from the logs
// alone.
var ladder = map[string][4]float64{
	"random":  {-4.57, 12.47, 13.43, 14.63},
	"greedy":  {15.80, 18.97, 19.69, 19.48},
	"pimc":    {27.02, 23.57, 23.06, 22.74},
	"expert":  {30.88, 23.99, 23.86, 23.39},
	"level-1": {-0.85, 14.30, 14.89, 15.49},
	"level-2": {5.23, 15.45, 15.84, 16.76},
	"level-3": {9.96, 17.30, 17.28, 17.95},
	"level-4": {17.62, 18.68, 18.25, 19.69},
	"level-5": {22.43, 20.07, 18.99, 20.52},
	"level-6": {26.66, 21.04, 20.81, 21.90},
	"level-7": {29.42, 22.55, 21.74, 23.38},
	"level-8": {30.95, 24.36, 23.04, 24.11},
}

// LadderRating is strategy name's displayed rating in format ("2p", "3p", "4p" or "2v2") on the
// ladder of docs/bots.md; false for a name or format it does not hold. Matchmaking's bot
// fallback places a bot there until the bot's own rating settles, since on a fresh server
// every bot has the prior's rating and the fallback could not otherwise tell the levels apart.
func LadderRating(name, format string) (float64, bool) {
	r, ok := ladder[name]
	if !ok {
		return 0, false
	}
	for i, f := range ladderFormats {
		if f == format {
			return r[i], true
		}
	}
	return 0, false
}

// WeakestFirst lists AllNames weakest first by their two-player ratings on the ladder, the
// format where the ladder spreads widest (docs/bots.md, "The levels' ratings"); strategies
// rated alike keep AllNames' order. It is the order of the API's bot enum, which `go generate
// ./api/` writes from it, and so of the web form's choice of bots: measuring the bots again
// reorders both.
func WeakestFirst() []string {
	names := AllNames()
	slices.SortStableFunc(names, func(a, b string) int {
		ra, _ := LadderRating(a, ladderFormats[0])
		rb, _ := LadderRating(b, ladderFormats[0])
		return cmp.Compare(ra, rb)
	})
	return names
}
