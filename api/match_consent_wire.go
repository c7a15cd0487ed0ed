package api

import "github.com/allfives/allfives/domain"

// The wire types of consent and resignation (docs/api-matches.md, "Consent").

// Reservation is whom a reserved seat is kept for.
type Reservation struct {
	// ID is the player's id; absent on a rematch's anonymous seat, which is kept for the
	// holder of the seat's token in the match the rematch follows.
	ID string `json:"id,omitempty"`
	// Name is the player's name, or the anonymous seat's name in the match before.
	Name string `json:"name" example:"Bo"`
}

// Cancellation is who cancelled a match, and why.
type Cancellation struct {
	// Seat is the seat that declined (the one it was reserved for) or withdrew (a holder);
	// absent when the offer expired or the tournament was cancelled.
	Seat *int `json:"seat,omitempty"`
	// Reason: declined (the reserved seat said no), withdrawn (a seat holder called it off),
	// offer_expired (a rematch offer was not accepted in time), tournament_cancelled (the
	// match's tournament was cancelled while it waited or was being played).
	Reason string `json:"reason" enums:"declined,withdrawn,offer_expired,tournament_cancelled"`
}

func toReservation(r domain.Reservation) *Reservation {
	if r.IsZero() {
		return nil
	}
	return &Reservation{ID: r.ID, Name: r.Name}
}

func toCancellation(c *domain.MatchCancelled) *Cancellation {
	if c == nil {
		return nil
	}
	out := &Cancellation{Reason: string(c.Reason)}
	if c.Seat != nil {
		seat := *c.Seat
		out.Seat = &seat
	}
	return out
}

// toPlayer is a seat as the history and match.created show it.
func toPlayer(p domain.PlayerInfo) Player {
	return Player{Seat: p.Seat, Name: p.Name, Kind: string(p.Kind), Bot: p.Bot, Player: p.Player, ReservedFor: toReservation(p.ReservedFor)}
}
