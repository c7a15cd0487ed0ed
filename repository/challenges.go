package repository

import (
	"fmt"
	"slices"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// ChallengeParties are the players the cap on waiting challenges counts for a new match
// (referee.MatchRecord.ChallengeCap): from, the players bound to its human seats (its
// creator); to, the players its open seats are reserved for. A match with no reserved seat
// is no challenge: to is empty, and nothing is counted. Each list is sorted, without repeats.
func ChallengeParties(rec referee.MatchRecord) (from, to []string) {
	for _, sr := range rec.Seats {
		switch {
		case sr.Player == "":
		case sr.Kind == domain.Human:
			from = append(from, sr.Player)
		case sr.Kind == domain.Open:
			to = append(to, sr.Player)
		}
	}
	slices.Sort(from)
	slices.Sort(to)
	return slices.Compact(from), slices.Compact(to)
}

// TooManyChallenges is the refusal of a challenge for player, who has cap challenges waiting
// for an answer already: sent by it (sent), or to it.
func TooManyChallenges(player string, sent bool, cap int) error {
	if sent {
		return domain.Detailf(referee.ErrTooManyChallenges, "player %s has %d challenges waiting for an answer, the most one player may send: "+
			"withdraw one, or wait until one is taken, declined or expires", player, cap)
	}
	return domain.Detailf(referee.ErrTooManyChallenges, "player %s has %d challenges waiting for its answer, the most one player may be sent: "+
		"try again once it has answered some", player, cap)
}

// CheckChallenges refuses rec, a new match, with TooManyChallenges when its ChallengeCap is
// reached for one of its parties: count(player, sent) is how many challenges the player has
// waiting, sent or received, as the store holds them. It checks nothing for a match that is
// no challenge, or has no cap.
func CheckChallenges(rec referee.MatchRecord, count func(player string, sent bool) (int, error)) error {
	if rec.ChallengeCap <= 0 {
		return nil
	}
	from, to := ChallengeParties(rec)
	if len(to) == 0 {
		return nil
	}
	for _, side := range []struct {
		players []string
		sent    bool
	}{{from, true}, {to, false}} {
		for _, p := range side.players {
			n, err := count(p, side.sent)
			if err != nil {
				return fmt.Errorf("count the challenges of player %s: %w", p, err)
			}
			if n >= rec.ChallengeCap {
				return TooManyChallenges(p, side.sent, rec.ChallengeCap)
			}
		}
	}
	return nil
}
