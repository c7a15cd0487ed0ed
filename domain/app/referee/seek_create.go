package referee

import (
	"context"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// PairedSeat is one seat of a match the matchmaker makes (docs/matchmaking.md): a player who
// asked for the match by seeking it, or a bot's strategy.
type PairedSeat struct {
	// Player is the seeking player's id; "" for a bot.
	Player string
	// Bot is the strategy of a bot seat.
	Bot string
}

// CreatePaired creates match id with every seat taken and deals it at once: each human seat
// bound to its player (named after it, section 14 of the design), each bot seat to its
// strategy. It takes no key: the players asked for the match with their seeks, which the
// caller claimed for it, and hold its seats with their keys. req gives the format (its
// Partnerships), target, clock and rated; its Players and Key are ignored.
func (s *MatchService) CreatePaired(ctx context.Context, id string, req CreateRequest, seats []PairedSeat) (_ Created, err error) {
	defer domain.Wrap(&err, "create paired match")
	if s.keys == nil {
		return Created{}, errNoPlayers
	}
	if id == "" {
		return Created{}, fmt.Errorf("a paired match needs its id")
	}
	entries := make([]domain.PlayerInfo, len(seats))
	bound := map[int]string{}
	for i, st := range seats {
		if st.Player == "" {
			entries[i] = domain.PlayerInfo{Kind: domain.Bot, Bot: st.Bot}
			continue
		}
		who, err := s.keys.Profile(ctx, st.Player)
		if err != nil {
			return Created{}, fmt.Errorf("seat %d: %w", i, err)
		}
		for j := range i {
			if bound[j] == who.ID {
				return Created{}, fmt.Errorf("seat %d: %w: seat %d is the same player", i, domain.ErrAlreadySeated, j)
			}
		}
		entries[i] = domain.PlayerInfo{Kind: domain.Human, Name: who.Name, Player: who.ID}
		bound[i] = who.ID
	}
	req.Players, req.Key, req.Listed, req.Seed = nil, "", false, ""
	return s.create(ctx, id, req, entries, bound)
}

// Exists says whether match id is stored (any status, sealed or not).
func (s *MatchService) Exists(ctx context.Context, id string) (bool, error) {
	_, err := s.StatusOf(ctx, id)
	switch {
	case err == nil:
		return true, nil
	case domain.CodeOf(err) == domain.CodeMatchNotFound:
		return false, nil
	}
	return false, err
}
