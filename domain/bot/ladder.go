package bot

// ladderFormats are the formats of ladder's columns, in order.
var ladderFormats = [4]string{"2p", "3p", "4p", "2v2"}

// ladder is each strategy's displayed rating (mu - 3 sigma) in each format of ladderFormats at
// the end of the ladder in docs/bots.md ("The levels' ratings"): 1,000 rated matches per
// format of the twelve strategies, seed 1. It is a figure measured once and written down, not
// a rating: a rating comes from the logs alone.
var ladder = map[string][4]float64{
	"random":  {-9.09, 11.07, 13.02, 12.73},
	"greedy":  {16.29, 19.72, 18.69, 21.06},
	"pimc":    {24.54, 21.00, 20.95, 21.80},
	"expert":  {33.85, 23.50, 23.60, 22.70},
	"level-1": {4.51, 13.21, 15.53, 17.82},
	"level-2": {2.40, 17.22, 16.83, 16.56},
	"level-3": {13.33, 15.50, 18.27, 18.03},
	"level-4": {15.98, 19.28, 18.98, 20.00},
	"level-5": {21.44, 21.34, 19.96, 21.87},
	"level-6": {26.75, 20.76, 20.77, 23.36},
	"level-7": {28.54, 23.29, 23.69, 24.77},
	"level-8": {31.12, 23.14, 20.95, 24.55},
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
