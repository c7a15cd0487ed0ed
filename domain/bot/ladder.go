package bot

// ladderFormats are the formats of ladder's columns, in order.
var ladderFormats = [4]string{"2p", "3p", "4p", "2v2"}

// ladder is each strategy's displayed rating (mu - 3 sigma) in each format of ladderFormats at
// the end of the ladder in docs/bots.md ("The levels' ratings"): 1,000 rated matches per
// format of the twelve strategies, seed 1. It is a figure measured once and written down, not
// a rating: a rating comes from the logs alone.
var ladder = map[string][4]float64{
	"random":  {-7.10, 12.18, 13.83, 13.65},
	"greedy":  {17.55, 19.12, 18.67, 22.02},
	"pimc":    {25.62, 20.21, 20.15, 22.00},
	"expert":  {31.29, 23.06, 23.76, 23.13},
	"level-1": {1.62, 12.95, 17.46, 16.63},
	"level-2": {7.42, 16.61, 18.18, 16.51},
	"level-3": {10.03, 14.23, 16.67, 18.10},
	"level-4": {17.57, 19.99, 19.20, 19.31},
	"level-5": {22.26, 22.19, 20.82, 21.85},
	"level-6": {25.79, 20.26, 21.34, 22.60},
	"level-7": {28.04, 24.89, 23.98, 23.28},
	"level-8": {32.86, 22.41, 21.24, 23.99},
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
