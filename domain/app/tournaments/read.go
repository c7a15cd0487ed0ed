package tournaments

import (
	"context"
	"errors"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/tournament"
)

// facts reads what the audit and the results need of match id, from the referee as seat 0
// reads it: a sealed match refuses spectators, and seat 0's view shows the seats, status and
// scores (what the service needs, and never passes on while sealed), and its seed only once
// the round revealed it.
func (s *Service) facts(ctx context.Context, st *tournament.State, id string) (tournament.MatchFacts, error) {
	v, err := s.matches.View(ctx, id, domain.SeatViewer(0))
	if err != nil {
		return tournament.MatchFacts{}, err
	}
	f := tournament.MatchFacts{ID: id, Commitment: v.Commitment, Finished: v.Status == domain.StatusFinished, Cancelled: v.Status == domain.StatusCancelled}
	for seat, p := range v.Seats {
		who := p.Player
		if p.Kind == domain.Bot {
			who = referee.BotPlayer(p.Bot)
			for _, e := range st.Entries {
				if e.Bot == p.Bot && e.Name == p.Name {
					who = e.Player
				}
			}
		}
		f.Players = append(f.Players, who)
		if f.Finished {
			f.Scores = append(f.Scores, v.Scores[st.Spec.Format.SideOf(seat)])
		}
	}
	if f.Finished {
		events, _, err := s.matches.Events(ctx, id, domain.SeatViewer(0), v.Version-1, 1)
		switch {
		case err != nil:
			return tournament.MatchFacts{}, err
		case len(events) == 1:
			if me, ok := events[0].Data.(domain.MatchEnded); ok {
				f.Seed = me.Seed
			}
		}
	}
	return f, nil
}

// Tournament is one tournament as anyone may read it: its state folded from the log, and the
// log itself (hash-chained).
type Tournament struct {
	State *tournament.State
	Links []tournament.Link
}

// Get reads tournament id.
func (s *Service) Get(ctx context.Context, id string) (Tournament, error) {
	t, err := s.load(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	return Tournament{State: t.st, Links: t.links}, nil
}

// List reads the tournaments of the statuses given (all when none), newest first.
func (s *Service) List(ctx context.Context, statuses []tournament.Status, limit int) ([]*tournament.State, error) {
	rows, err := s.store.Tournaments(ctx, statuses, limit)
	if err != nil {
		return nil, err
	}
	out := make([]*tournament.State, 0, len(rows))
	for _, r := range rows {
		t, err := s.load(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, t.st)
	}
	return out, nil
}

// Audit re-verifies tournament id against its matches' own records (tournament.Audit).
func (s *Service) Audit(ctx context.Context, id string) (tournament.Report, error) {
	t, err := s.load(ctx, id)
	if err != nil {
		return tournament.Report{}, err
	}
	facts := map[string]tournament.MatchFacts{}
	for _, r := range t.st.Rounds {
		for _, m := range r.Matches {
			if m == "" {
				continue
			}
			f, err := s.facts(ctx, t.st, m)
			if err != nil && !errors.Is(err, domain.ErrMatchNotFound) {
				return tournament.Report{}, err
			}
			if err == nil {
				facts[m] = f
			}
		}
	}
	return tournament.Audit(id, t.links, facts), nil
}
