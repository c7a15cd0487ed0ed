package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/tournament"
)

// tournamentSweep is how often each instance looks for tournaments due (a start time come, a
// round whose matches ended unheard): announcements drive them between sweeps.
const tournamentSweep = 5 * time.Second

// startTournaments wires the tournament service over st when the store keeps tournaments,
// and drives it until the returned stop is called; nil when it does not.
func startTournaments(st any, svc *referee.MatchService, people *players.Service, rs *ratings.Service, log *slog.Logger) (*tournaments.Service, func()) {
	ts, ok := st.(tournaments.Store)
	if !ok {
		return nil, func() {}
	}
	t := tournaments.New(tournaments.Config{Store: ts, Matches: svc, Players: people, Rater: rater(rs), Logger: log})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.Run(ctx, tournamentSweep)
	}()
	return t, func() { cancel(); <-done }
}

// rater reads an entrant's rating in the format from the ratings; 0 when it has none.
func rater(rs *ratings.Service) tournaments.Rater {
	return func(ctx context.Context, player string, f tournament.Format) float64 {
		got, err := rs.Player(ctx, player, ratings.HistoryQuery{Format: ratings.Format(f), Limit: 1})
		if err != nil {
			return 0
		}
		for _, s := range got.Standings {
			if string(s.Format) == string(f) {
				return s.Ordinal()
			}
		}
		return 0
	}
}
