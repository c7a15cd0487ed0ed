package api

import (
	"sync"

	"github.com/allfives/allfives/domain/app/tournaments"
)

// Player stream events of tournaments (docs/api-tournaments.md, "Tournaments"): round (the player's table
// in a round that started: match, or none for a bye) and tournament_ended.
const (
	playerEventRound           = "round"
	playerEventTournamentEnded = "tournament_ended"
)

// tournamentNotices fans the tournament service's notices out to the player streams open on
// this instance. A notice is told by the instance that started the round; a stream on another
// instance hears of the round's match as it hears of any match (started, turn).
type tournamentNotices struct {
	mu   sync.Mutex
	subs map[string]map[chan namedEvent]struct{}
}

// tell hands n to every stream of player, dropping it for a stream too far behind.
func (tn *tournamentNotices) tell(player string, n tournaments.Notice) {
	e := namedEvent{name: playerEventRound, data: PlayerEvent{Match: n.Match, Tournament: n.Tournament, Round: n.Round, Seat: n.Seat}}
	if n.Kind == "tournament_ended" {
		e.name = playerEventTournamentEnded
	}
	tn.mu.Lock()
	defer tn.mu.Unlock()
	for ch := range tn.subs[player] {
		select {
		case ch <- e:
		default:
		}
	}
}

// subscribe returns the notices of player until leave is called; nil when tn is nil.
func (tn *tournamentNotices) subscribe(player string) (<-chan namedEvent, func()) {
	if tn == nil {
		return nil, func() {}
	}
	ch := make(chan namedEvent, 64)
	tn.mu.Lock()
	if tn.subs == nil {
		tn.subs = map[string]map[chan namedEvent]struct{}{}
	}
	if tn.subs[player] == nil {
		tn.subs[player] = map[chan namedEvent]struct{}{}
	}
	tn.subs[player][ch] = struct{}{}
	tn.mu.Unlock()
	return ch, func() {
		tn.mu.Lock()
		defer tn.mu.Unlock()
		delete(tn.subs[player], ch)
		if len(tn.subs[player]) == 0 {
			delete(tn.subs, player)
		}
	}
}
