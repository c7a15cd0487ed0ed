package simulate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// errIllegal marks a strategy answering a move its view did not list.
var errIllegal = errors.New("illegal move")

// job is one match to play.
type job struct {
	index   int
	deal    int
	seating []string
}

// result is one finished match, or the error that stopped it.
type result struct {
	job
	scores []int
	winner int
	hands  int
	err    error
}

// player plays matches for one worker. Its strategies are wrapped in probes that time each
// real choice and check every answer against the legal moves, which nothing else in the
// simulation would notice: the service quietly replaces an illegal move.
type player struct {
	c       Config
	probes  map[string]domain.Strategy
	timings map[string][]uint32 // choice durations in ns, per strategy
	fault   error               // first strategy failure seen through a probe
	service *referee.MatchService
}

func newPlayer(c Config) *player {
	p := &player{c: c, probes: map[string]domain.Strategy{}, timings: map[string][]uint32{}}
	for name, s := range c.Strategies {
		p.probes[name] = &probe{name: name, inner: s, p: p}
	}
	if c.Store != nil {
		p.service = referee.NewMatchService(referee.ServiceConfig{Store: c.Store, Bots: p.probes, CacheSize: 16})
	}
	return p
}

func (p *player) serve(ctx context.Context, jobs <-chan job, out chan<- result) {
	for j := range jobs {
		r := p.play(ctx, j)
		select {
		case out <- r:
		case <-ctx.Done():
			return
		}
	}
}

// play runs one match to its end.
func (p *player) play(ctx context.Context, j job) result {
	res := result{job: j}
	spec := domain.MatchSpec{Partnerships: p.c.Partnerships, Target: p.c.Target}
	for s, name := range j.seating {
		spec.Players = append(spec.Players, domain.PlayerInfo{
			Seat: s, Name: fmt.Sprintf("%s-%d", name, s), Kind: domain.Bot, Bot: name,
		})
	}
	seed := DealSeed(p.c.Seed, j.deal)
	if p.service != nil {
		res.scores, res.winner, res.hands, res.err = p.viaService(ctx, spec, seed)
	} else {
		res.scores, res.winner, res.hands, res.err = p.direct(ctx, spec, seed)
	}
	if res.err == nil && p.fault != nil {
		res.err = p.fault
	}
	if res.err != nil {
		res.err = fmt.Errorf("match %d (deal %d, seats %v): %w", j.index, j.deal, j.seating, res.err)
	}
	return res
}

// direct plays on the aggregate: the same Act as the service, without the store.
func (p *player) direct(ctx context.Context, spec domain.MatchSpec, seed domain.Seed) ([]int, int, int, error) {
	at := time.Unix(0, 0).UTC() // the clock plays no part in the rules
	spec.Seeded = true
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		return nil, 0, 0, err
	}
	m, err := domain.Resume("simulated", seed, events)
	if err != nil {
		return nil, 0, 0, err
	}
	var hands domain.HandLog
	hands.Record(events...)
	for step := 0; !m.Finished(); step++ {
		if step > referee.MaxBotSteps {
			return nil, 0, 0, fmt.Errorf("no end after %d moves", step)
		}
		seat := m.Turn()
		mv, err := p.probes[spec.Players[seat].Bot].Choose(ctx, m.SeatView(seat, hands))
		if err != nil {
			return nil, 0, 0, err
		}
		evs, err := m.Act(seat, mv, at)
		if err != nil {
			return nil, 0, 0, err
		}
		hands.Record(evs...)
	}
	w, _ := m.WinnerSide()
	return m.Scores(), w, m.HandsPlayed(), nil
}

// viaService creates the match through the service, which plays its bots to the end inside
// Create and stores every event.
func (p *player) viaService(ctx context.Context, spec domain.MatchSpec, seed domain.Seed) ([]int, int, int, error) {
	created, err := p.service.Create(ctx, referee.CreateRequest{
		Players: spec.Players, Partnerships: spec.Partnerships, Target: spec.Target, Seed: seed.String(),
	})
	if err != nil {
		return nil, 0, 0, err
	}
	mv := created.Match
	if mv.WinnerSide == nil {
		return nil, 0, 0, fmt.Errorf("match %s did not finish inside create", mv.ID)
	}
	stored, err := p.c.Store.Match(ctx, mv.ID)
	if err != nil {
		return nil, 0, 0, err
	}
	return mv.Scores, *mv.WinnerSide, stored.Summary.Hands, nil
}

// probe times a strategy's real choices (more than one legal move) and checks its answers.
type probe struct {
	name  string
	inner domain.Strategy
	p     *player
}

// Choose asks the wrapped strategy and fails on an error or an illegal move.
func (b *probe) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	start := time.Now()
	mv, err := b.inner.Choose(ctx, v)
	d := time.Since(start)
	if len(v.LegalMoves) > 1 {
		b.p.timings[b.name] = append(b.p.timings[b.name], uint32(min(d, math.MaxUint32)))
	}
	if err == nil && !legal(mv, v.LegalMoves) {
		err = fmt.Errorf("%w: %s chose %+v at seat %d; legal were %v", errIllegal, b.name, mv, v.Seat, v.LegalMoves)
	}
	if err != nil && b.p.fault == nil {
		b.p.fault = fmt.Errorf("strategy %s: %w", b.name, err)
	}
	return mv, err
}

func legal(mv domain.Move, moves []domain.LegalMove) bool {
	for _, l := range moves {
		if l.Move() == mv {
			return true
		}
	}
	return false
}
