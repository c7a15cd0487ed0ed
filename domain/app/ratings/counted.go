package ratings

import (
	"fmt"

	"github.com/allfives/allfives/domain/openskill"
)

// A rating buys nothing by farming (docs/ratings.md, "Farming"). The standing alone keeps a
// farmed account off the leaderboard, but not its farmed mu and lowered sigma, which it
// carries onto the board once it is listed. So a match counts for a player, in every figure
// of its standing, only when it was against established opponents (againstEstablished, the
// standing's own test, on the standings just before the match in the projection's order):
// then it moves the player's mu and sigma and counts in its matches, wins and established
// matches. Otherwise it is recorded, as a change whose after is its before, and counts
// toward nothing: a player whose rated matches of a format never counted has no standing in
// it.
//
// So a result between two provisional players moves neither; between a provisional player
// and an established one (a bot is always established) it moves the provisional player's
// rating, which is how a new player becomes established, and not the established one's,
// whom a new account could otherwise feed. With more than two sides, or partnerships, the
// test is per player, over every player of every other side: one provisional opponent at
// the table and the match moves nothing of the player's, so a farm cannot hide one account
// among bots or established players to feed another seat. A partner does not matter: its
// result is the player's own.

// Counted says whether the match counted for the player: it moved the player's rating and
// counts in its standing. A change that did not count has After equal to Before.
func (c Change) Counted() bool { return c.AgainstEstablished }

// RateStanding rates res under the standing and the rule above: each seat's change says
// whether the match counted for its player (AgainstEstablished), and the standings returned
// are those of the players it counted for, in seat order, after it. The live projection and
// the rebuild both rate here, so they agree.
func RateStanding(m openskill.Model, res Result, before map[string]Standing) ([]Change, []Standing, error) {
	changes, after, err := Rate(m, res, before)
	if err != nil {
		return nil, nil, err
	}
	standings := make([]Standing, 0, len(after))
	for i, s := range res.Seats {
		if !againstEstablished(res, s.Side, before) {
			changes[i].After = changes[i].Before
			continue
		}
		changes[i].AgainstEstablished = true
		after[i].Established++
		standings = append(standings, after[i])
	}
	return changes, standings, nil
}

// takeBack undoes change c in state, the standings of a rewind, which takes a player's changes
// back latest first: a change that counted gives back its rating before and its counts; one
// that did not changed nothing, so nothing is given back (the player may have no standing).
func takeBack(state map[standingKey]Standing, c Change) error {
	if !c.Counted() {
		return nil
	}
	key := standingKey{c.Player, c.Format}
	st, ok := state[key]
	if !ok {
		return fmt.Errorf("rewind: %s has a change in %s but no standing", c.Player, c.Format)
	}
	st.Rating = c.Before
	st.Matches--
	if c.Won {
		st.Wins--
	}
	st.Established--
	state[key] = st
	return nil
}
