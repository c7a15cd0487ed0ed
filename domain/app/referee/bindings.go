package referee

import (
	"context"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/names"
)

// PlayerKeys is the port through which the referee asks who a player key belongs to, and
// whether a player id exists: players.Service implements it (docs/api-players.md, "Players").
type PlayerKeys interface {
	// Authenticate returns the player whose current key is key, or an error wrapping
	// domain.ErrUnauthorized that never holds the key.
	Authenticate(ctx context.Context, key string) (players.Player, error)
	// Profile returns player id's public profile, or players.ErrPlayerNotFound.
	Profile(ctx context.Context, id string) (players.Profile, error)
}

// Me is the player entry of a create request that binds the seat to the creator's own key.
const Me = "me"

// errNoPlayers refuses a binding on a server that serves no players.
var errNoPlayers = domain.Invalidf("this server serves no players: leave player out")

// keyHolder authenticates a player key: the player, or domain.ErrUnauthorized.
func (s *MatchService) keyHolder(ctx context.Context, key string) (players.Player, error) {
	if s.keys == nil {
		return players.Player{}, domain.Detailf(domain.ErrUnauthorized, "this server serves no players: a player key is no credential here")
	}
	return s.keys.Authenticate(ctx, key)
}

// errBoundName refuses a name given to a seat bound to a player that is not the player's: a
// bound seat shows its player's name, so that no one sits at a table as someone else.
func errBoundName(field, name string) error {
	return domain.Invalidf("%s: a seat bound to a player shows the player's name, %q; leave name out or give that name", field, name)
}

// bindPlayers resolves the player entries of a create request: "me" becomes the creator's
// id (key must be its key) and binds a human seat, named after the player (a name given must
// be the player's, names.Same); any other id reserves the seat for that player: an open seat in the match, which
// only that player's key may join (a challenge). It returns the seats as the match starts
// and, by seat, the players the seats are bound or reserved to.
func (s *MatchService) bindPlayers(ctx context.Context, in []domain.PlayerInfo, key string, entered bool) ([]domain.PlayerInfo, map[int]string, error) {
	out := append([]domain.PlayerInfo(nil), in...)
	bound := map[int]string{}
	var me *players.Player
	for i, p := range out {
		if p.Player == "" {
			continue
		}
		if s.keys == nil {
			return nil, nil, errNoPlayers
		}
		if p.Kind != domain.Human {
			return nil, nil, domain.Invalidf("players[%d]: only a human seat names a player", i)
		}
		id := p.Player
		if len(id) > 64 {
			return nil, nil, domain.Invalidf("players[%d].player is \"me\" or a player's id", i)
		}
		if id == Me {
			if me == nil {
				who, err := s.keyHolder(ctx, key)
				if err != nil {
					return nil, nil, fmt.Errorf("players[%d] is \"me\": %w", i, err)
				}
				me = &who
			}
			id = me.ID
			p.Player = id
			if p.Name != "" && !names.Same(p.Name, me.Name) {
				return nil, nil, errBoundName(fmt.Sprintf("players[%d].name", i), me.Name)
			}
			p.Name = me.Name
		} else if entered {
			who, err := s.keys.Profile(ctx, id)
			if err != nil {
				return nil, nil, fmt.Errorf("players[%d]: %w", i, err)
			}
			p.Name = who.Name // a tournament's entrant accepted its seat by entering
		} else {
			if p.Name != "" {
				return nil, nil, domain.Invalidf("players[%d] challenges a player: the player names the seat when it joins", i)
			}
			if IsBotPlayer(id) {
				// A bot's player has no key to join with: its seat would stay open for good.
				return nil, nil, domain.Invalidf("players[%d] challenges %s, a bot's player; a bot plays a seat of kind bot", i, id)
			}
			who, err := s.keys.Profile(ctx, id)
			if err != nil {
				return nil, nil, fmt.Errorf("players[%d]: %w", i, err)
			}
			// The log says for whom the seat is kept, so that views, the lobby and the audit
			// know it (docs/api-matches.md, "Consent").
			p = domain.PlayerInfo{Kind: domain.Open, ReservedFor: domain.Reservation{ID: who.ID, Name: who.Name}}
		}
		for j := range i {
			if bound[j] == id {
				return nil, nil, fmt.Errorf("players[%d]: %w: players[%d] is the same player", i, domain.ErrAlreadySeated, j)
			}
		}
		bound[i] = id
		out[i] = p
	}
	return out, bound, nil
}

// keySeat is the seat the player holding key holds in seats, or domain.ErrUnauthorized: a key
// stands for the seats of its player, and for no other (docs/api-players.md, "Players").
func (s *MatchService) keySeat(ctx context.Context, key string, seats []SeatRecord) (int, error) {
	who, err := s.keyHolder(ctx, key)
	if err != nil {
		return -1, err
	}
	return playerSeat(seats, who.ID)
}

// playerSeat is the human seat of seats bound to player, or -1 with no error when the player
// is only reserved a seat (a challenge or a rematch it has not taken: it reads the match as a
// spectator, docs/api-matches.md "Consent"), else domain.ErrUnauthorized.
func playerSeat(seats []SeatRecord, player string) (int, error) {
	reserved := false
	for _, sr := range seats {
		switch {
		case sr.Player != player:
		case sr.Kind == domain.Human:
			return sr.Seat, nil
		case sr.Kind == domain.Open:
			reserved = true
		}
	}
	if reserved {
		return -1, nil
	}
	return -1, errNoSeatOfKey
}

// seatedElsewhere is the seat other than seat that player is bound or reserved to, or -1.
func seatedElsewhere(seats []SeatRecord, seat int, player string) int {
	for _, sr := range seats {
		if sr.Seat != seat && sr.Player == player {
			return sr.Seat
		}
	}
	return -1
}
