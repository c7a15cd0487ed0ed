package referee

import (
	"context"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// PlayerMatchQuery asks for one player's matches, newest first (docs/api-players.md, "Players").
// Status filters as the history's does (without the lobby's listed rule: these are the
// player's own); Turn keeps only the matches in progress where the player's seat is to act.
// Limit 0 means the store's default; Cursor is the NextCursor of the previous page. Own says
// the caller is the player itself (its key checked, or its own stream): its sealed matches are
// listed too, as its seat reads them (docs/tournaments.md, "Sealed matches"); for anyone else
// they are left out.
type PlayerMatchQuery struct {
	Player string
	Status domain.Status
	Turn   bool
	Limit  int
	Cursor string
	Own    bool
}

// PlayerMatch is one of a player's matches: the history item and the seat the player holds
// (or, in a challenge not yet taken, is reserved).
type PlayerMatch struct {
	HistoryItem
	Seat int
}

// PlayerMatchPage is one page of a player's matches; NextCursor is empty on the last page.
type PlayerMatchPage struct {
	Matches    []PlayerMatch
	NextCursor string
}

// PlayerMatchStore is what a store implements to list a player's matches from its seats
// bound to players: a walk of the index seats_player_matches in the SQL stores, in the same
// order and with the same cursor as the history. Every store in repository/ implements it.
type PlayerMatchStore interface {
	PlayerMatches(ctx context.Context, q PlayerMatchQuery) (PlayerMatchPage, error)
}

// errNoPlayerMatches is a store that cannot list a player's matches.
var errNoPlayerMatches = errors.New("the store does not list a player's matches")

// PlayerMatches lists the matches of player q.Player, newest first. Whether the caller may
// ask (Turn and Own are for the player's own key) is the caller's business. A sealed match's
// item shows what its seat reads of it (status, scores, turn, the seats), nothing of a hand.
func (s *MatchService) PlayerMatches(ctx context.Context, q PlayerMatchQuery) (PlayerMatchPage, error) {
	st, ok := s.store.(PlayerMatchStore)
	if !ok {
		return PlayerMatchPage{}, errNoPlayerMatches
	}
	page, err := st.PlayerMatches(ctx, q)
	if err != nil {
		return PlayerMatchPage{}, fmt.Errorf("matches of player %s: %w", q.Player, err)
	}
	if !q.Own {
		page.Matches = unsealed(ctx, s, page.Matches, func(it PlayerMatch) HistoryItem { return it.HistoryItem })
	}
	return page, nil
}
