package api

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
)

// programLookup bounds the read of a player's profile made to mark its seat: a view is never
// held up for long by it, and a seat whose player could not be read is shown unmarked.
const programLookup = 2 * time.Second

// maxPrograms bounds the players whose flag an instance keeps; past it the memory starts
// again empty. A flag never changes once the player is made, so a kept flag is never stale.
const maxPrograms = 100_000

// programs remembers which players are programs (docs/engine.md), so that marking the seats
// of a view reads each player's profile once per instance.
type programs struct {
	mu   sync.Mutex
	seen map[string]bool
}

// isProgram says whether the player is a program, reading its profile the first time.
func (s *server) isProgram(id string) bool {
	s.programs.mu.Lock()
	p, ok := s.programs.seen[id]
	s.programs.mu.Unlock()
	if ok || s.players == nil {
		return p
	}
	ctx, cancel := context.WithTimeout(context.Background(), programLookup)
	defer cancel()
	prof, err := s.players.Profile(ctx, id)
	if err != nil {
		return false
	}
	s.programs.mu.Lock()
	if s.programs.seen == nil || len(s.programs.seen) >= maxPrograms {
		s.programs.seen = map[string]bool{}
	}
	s.programs.seen[id] = prof.Program
	s.programs.mu.Unlock()
	return prof.Program
}

// markPrograms sets program on the seats bound to a player made as a program (ToMatchView
// marks the bots').
func (s *server) markPrograms(v *MatchView) {
	for i := range v.Seats {
		seat := &v.Seats[i]
		seat.Program = seat.Program || seat.Player != "" && s.isProgram(seat.Player)
	}
}

// encodeMatchView is the body of a state read, byte for byte what c.JSON would write, its
// programs marked; the service keeps it per version and viewer, so an unchanged match is
// encoded once per seat.
func (s *server) encodeMatchView(v domain.MatchView) ([]byte, error) {
	out := ToMatchView(v)
	s.markPrograms(&out)
	b, err := json.Marshal(out)
	return append(b, '\n'), err
}
