package referee

import (
	"context"
	"strings"

	"github.com/allfives/allfives/domain"
)

// BotPlayer is the player id of a bot seat of strategy name in a rated match: bot-<name>,
// bot-greedy for greedy (docs/ratings.md, "Who is rated").
func BotPlayer(name string) string { return botPlayerPrefix + name }

// botPlayerPrefix begins every bot's player id; a human player's id is hex, so never does.
const botPlayerPrefix = "bot-"

// IsBotPlayer says whether id is a bot's player, which plays only a bot seat and holds no key.
func IsBotPlayer(id string) bool { return strings.HasPrefix(id, botPlayerPrefix) }

// checkRated refuses a rated match that could not be rated fairly (docs/ratings.md, "Who is
// rated"): every seat a player (bound with "me", or reserved by id for a challenge) or a bot,
// each bot strategy at most once, so the players of the match are distinct, and no chosen
// seed, whose chooser could compute every hand.
func checkRated(seats []domain.PlayerInfo, bound map[int]string, seed string) error {
	if seed != "" {
		return domain.Invalidf("a rated match draws its own seed: leave seed out (whoever chooses it can compute every hand)")
	}
	bots := map[string]int{}
	for i, p := range seats {
		switch {
		case p.Kind == domain.Bot:
			if j, ok := bots[p.Bot]; ok {
				return domain.Invalidf("players[%d] and players[%d] are both the %s bot: the players of a rated match are distinct, so each bot sits at most once", j, i, p.Bot)
			}
			bots[p.Bot] = i
		case bound[i] == "":
			return domain.Invalidf("players[%d] is an anonymous seat: every seat of a rated match is a bot or bound to a player (\"player\": \"me\" with the creator's key, or a player's id)", i)
		}
	}
	return nil
}

// RatedState says whether match id is rated and finished: the two facts that decide
// whether its view carries rating changes. It takes no lock, like NextMatchID: it reads the
// published state, which a state read of the same request has just confirmed.
func (s *MatchService) RatedState(ctx context.Context, id string) (rated, finished bool, err error) {
	e, err := s.load(ctx, id)
	if err != nil {
		return false, false, err
	}
	defer s.cache.unpin(e)
	m := e.snap.Load().match
	return m.Rated(), m.Finished(), nil
}

// StatusOf is match id's status now (waiting, in_progress, finished, expired, cancelled),
// from its published state, without its lock: a review asks it before queuing any work, since
// only a match played to its end has anything to review.
func (s *MatchService) StatusOf(ctx context.Context, id string) (domain.Status, error) {
	e, err := s.load(ctx, id)
	if err != nil {
		return "", err
	}
	defer s.cache.unpin(e)
	return e.snap.Load().match.Status(), nil
}
