package referee

import (
	"context"
	"errors"

	"github.com/allfives/allfives/domain"
)

// CancelForTournament ends match id, waiting or in progress, as cancelled because its
// tournament is being cancelled (docs/tournaments.md, "Life of a tournament"): it is never
// rated, and a match already dealt reveals its seed in the match.cancelled, which its
// tournament reveals right after. The tournament service calls it before it reveals a round's
// seed, so that no match dealt from a published seed is still being played. done is false
// when the match was already over (it finished, expired or was cancelled), which is no error.
func (s *MatchService) CancelForTournament(ctx context.Context, id string) (done bool, err error) {
	for range 3 {
		done, err = s.cancelForTournament(ctx, id)
		if !errors.Is(err, domain.ErrVersionConflict) {
			return done, err
		}
		// Another instance moved the match meanwhile (a move, the clock): decide again.
	}
	return done, err
}

func (s *MatchService) cancelForTournament(ctx context.Context, id string) (bool, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return false, err
	}
	defer s.release(e)
	if e.match.Closed() {
		return false, nil
	}
	work := e.working()
	events, err := work.match.DecideTournamentCancel(s.clock.Now())
	if err != nil {
		return false, err
	}
	if err := s.commit(ctx, e, work, events); err != nil {
		return false, err
	}
	return true, nil
}
