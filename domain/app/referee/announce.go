package referee

import (
	"context"

	"github.com/allfives/allfives/domain"
)

// WatchAll calls fn with the id of every match created or appended to, on this instance or,
// through Follow, on another sharing the store; fn("") says any match may have moved (a
// listener reconnected and may have missed announcements). It is how a player's stream hears
// of a match it does not know yet, such as a challenge (docs/api-players.md, "Players"). fn is called
// with the watchers' lock held: it must return at once, and never call back into the service.
// The cancel func must be called when the follower leaves.
func (s *MatchService) WatchAll(fn func(id string)) (cancel func()) {
	w := &s.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.every == nil {
		w.every = map[int]func(string){}
	}
	w.everySeq++
	n := w.everySeq
	w.every[n] = fn
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.every, n)
	}
}

// announce tells every WatchAll follower of id; the caller holds w.mu.
func (w *watchers) announce(id string) {
	for _, fn := range w.every {
		fn(id)
	}
}

// SeatPlayer is a seat of a match and the player it is bound or reserved to.
type SeatPlayer struct {
	Seat int
	// Player is the player bound to the seat, or reserved it (a challenge); never empty here.
	Player string
	// Joined says the player holds the seat; false for a challenge not yet taken.
	Joined bool
}

// MatchPlayers is who the players of a match are, as its stored record says.
type MatchPlayers struct {
	Seats []SeatPlayer
	// RematchOf is the finished match this one is the rematch of; "" for none.
	RematchOf string
}

// Players returns the seats of match id bound or reserved to players, from the store, so that
// a seat taken on another instance is seen at once.
func (s *MatchService) Players(ctx context.Context, id string) (MatchPlayers, error) {
	if id == "" || len(id) > 64 {
		return MatchPlayers{}, domain.ErrMatchNotFound
	}
	stored, err := s.store.Match(ctx, id)
	if err != nil {
		return MatchPlayers{}, err
	}
	out := MatchPlayers{RematchOf: stored.Record.RematchOf}
	for _, sr := range stored.Record.Seats {
		if sr.Player != "" {
			out.Seats = append(out.Seats, SeatPlayer{Seat: sr.Seat, Player: sr.Player, Joined: sr.Kind == domain.Human})
		}
	}
	return out, nil
}
