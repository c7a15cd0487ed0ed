package server

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"log/slog"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/domain/tournament"
)

// loop runs fn in a goroutine until the returned stop is called, which waits for it to end.
func loop(parent context.Context, fn func(ctx context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(ctx)
	}()
	return func() { cancel(); <-done }
}

// startProjector runs the ratings' projection: every instance runs one; the store lets one
// at a time rate.
func startProjector(st Store, every time.Duration, log *slog.Logger) (stop func()) {
	proj := ratings.NewProjector(ratings.Config{Store: st, Logs: st, Logger: log})
	return loop(context.Background(), func(ctx context.Context) {
		proj.Run(ctx, every, func(err error) { log.Error("rate matches", "err", err) })
	})
}

// startSweeper runs the clock: one sweeper per instance; the expected version settles races
// with others. It stops with ctx too.
func startSweeper(ctx context.Context, svc *referee.MatchService, every time.Duration, log *slog.Logger) (stop func()) {
	return loop(ctx, func(ctx context.Context) {
		svc.RunSweeper(ctx, every, func(err error) { log.Error("clock sweep", "err", err) })
	})
}

// startSeeks makes the seeks' service and runs its matcher until the func it returns is
// called (every instance runs one; the store lets one at a time pair).
func startSeeks(cfg Config, st Store, svc *referee.MatchService, people *players.Service, log *slog.Logger) (*seeks.Service, func()) {
	s := seeks.New(seeks.Config{
		Store: st, Matches: svc, Keys: people, Standings: st, Rule: cfg.Seeks.Rule,
		TTL: cfg.Seeks.TTL, Every: cfg.Seeks.Every, TurnSeconds: cfg.Seeks.TurnSeconds, BotOrder: bot.Names(), Logger: log,
		BotStart: func(name string, f matchmaking.Format) (float64, bool) { return bot.LadderRating(name, string(f)) },
		Now:      cfg.now(),
	})
	return s, loop(context.Background(), s.Run)
}

// startTournaments wires the tournament service over st when the store keeps tournaments,
// and drives it until the returned stop is called; nil when it does not.
func startTournaments(cfg Config, st any, svc *referee.MatchService, people *players.Service, rs *ratings.Service, log *slog.Logger) (*tournaments.Service, func()) {
	ts, ok := st.(tournaments.Store)
	if !ok {
		return nil, func() {}
	}
	t := tournaments.New(tournaments.Config{Store: ts, Matches: svc, Players: people, Rater: rater(rs), Clock: cfg.Clock, Random: cfg.Random, Logger: log})
	return t, loop(context.Background(), func(ctx context.Context) { t.Run(ctx, cfg.TournamentSweep) })
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

// resumeBots hands the bot pool the matches of bots only a previous run left unfinished.
func resumeBots(ctx context.Context, svc *referee.MatchService, log *slog.Logger) {
	n, err := svc.ResumeBots(ctx)
	if err != nil && ctx.Err() == nil {
		log.Error("resume matches of bots", "err", err)
	}
	if n > 0 {
		log.Info("resumed matches of bots", "matches", n)
	}
}

// botSeed seeds the bots' randomness afresh for each process, so no one can learn a bot's
// choices from another server's.
func botSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return binary.LittleEndian.Uint64(b[:])
}
