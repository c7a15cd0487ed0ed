package analysis

import (
	"context"
	"fmt"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
)

// maxSteps bounds one par replay; a match of bots ends in far fewer moves.
const maxSteps = 100000

// parMargins is each side's duplicate par: the mean final margin over opts.ParRuns replays
// of the match's deals (the same seed, table and target) with the expert in every seat, each
// replay's experts seeded apart (docs/review.md, "Par, luck and skill"). nil when par is off.
func parMargins(ctx context.Context, g *game, opts Options) ([]float64, error) {
	if opts.ParRuns == 0 {
		return nil, nil
	}
	par := make([]float64, g.table.Sides())
	for run := range opts.ParRuns {
		scores, err := replay(ctx, g, bot.NewExpert(derive("par", g.seed, run), opts.ParRollouts))
		if err != nil {
			return nil, err
		}
		for side := range par {
			par[side] += float64(margin(scores, side))
		}
	}
	for side := range par {
		par[side] /= float64(opts.ParRuns)
	}
	return par, nil
}

// replay plays the match's deals to the end with x in every seat and returns the final
// scores. A forced move is made without asking x: it could only answer that move.
func replay(ctx context.Context, g *game, x *bot.Expert) ([]int, error) {
	spec := domain.MatchSpec{Partnerships: g.created.Partnerships, Target: g.created.Target, Seeded: true}
	for s := range g.created.Players {
		spec.Players = append(spec.Players, domain.PlayerInfo{Seat: s, Name: fmt.Sprint("par-", s), Kind: domain.Bot, Bot: bot.NameExpert})
	}
	at := time.Unix(0, 0).UTC() // the clock plays no part in the rules
	events, err := domain.Start(spec, g.seed, at)
	if err != nil {
		return nil, err
	}
	m, err := domain.Resume("par", g.seed, events)
	if err != nil {
		return nil, err
	}
	var log domain.HandLog
	log.Record(events...)
	for step := 0; !m.Finished(); step++ {
		if step > maxSteps {
			return nil, fmt.Errorf("review: par replay did not end after %d moves", step)
		}
		seat := m.Turn()
		v := m.SeatView(seat, log)
		mv := v.LegalMoves[0].Move()
		if len(v.LegalMoves) > 1 {
			if mv, err = x.Choose(ctx, v); err != nil {
				return nil, err
			}
		}
		evs, err := m.Decide(seat, mv, at)
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			if err := m.Apply(e); err != nil {
				return nil, err
			}
		}
		log.Record(evs...)
	}
	return m.Scores(), nil
}
