package ratings

// StandingMatches is how many rated matches of a format against established opponents a
// player needs before it is established itself, and ranked (docs/ratings.md, "Standing").
const StandingMatches = 10

// Standing keeps rated play from being farmed (docs/ratings.md, "Standing"). A rating built
// on opponents nobody knows says nothing: twenty fresh accounts that each lose to one account
// would put it on top of the leaderboard. So a player is ranked only once StandingMatches of
// its matches were against established opponents, and an opponent is established when it is
// a bot (the bots play everyone, and nobody feeds them) or a player that was not provisional
// in the format at the moment the match was rated, by the very rule that ranks it. A new
// account is established only by beating, or losing to, players who are; a ring of new
// accounts playing one another never is.
//
// In a match of more than two sides, or of partnerships, a match counts for a player when
// every player of every other side was established; its partner (2v2) may be anyone, since a
// partner's result is the player's own and feeds nobody. A match that does not count for a
// player moves nothing of its rating either (counted.go).

// againstEstablished says whether every player of res off side was established before the
// match: a bot, or a player with a standing in the format that is not provisional.
func againstEstablished(res Result, side int, before map[string]Standing) bool {
	for _, s := range res.Seats {
		if s.Side == side || IsBot(s.Player) {
			continue
		}
		if st, ok := before[s.Player]; !ok || st.Provisional() {
			return false
		}
	}
	return true
}
