package tournaments

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/tournament"
)

// The tables of a round: which process creates them, and when a table of bots only may start
// (docs/tournaments.md, "Limits").

// createTables creates the first missing table of r that can be created now, and remembers
// the matches of the others. waiting says a table is still missing: a table of bots only that
// its organiser's limit or the bot pool refuses now, which a later step creates
// (docs/tournaments.md, "Limits").
func (s *Service) createTables(ctx context.Context, t *loaded, r *tournament.Round) (created, waiting bool, err error) {
	for i, m := range r.Matches {
		if m != "" {
			s.remember(m, t.row.ID)
			continue
		}
		ok, err := s.startTable(ctx, t, r, i)
		if err != nil || ok {
			return ok, false, err
		}
		waiting = true
	}
	return false, waiting, nil
}

// mayCreate says whether this process creates r's missing tables now: the process that
// started the round does at once; another only after the grace, should that one have died.
func (s *Service) mayCreate(t *loaded, r *tournament.Round) bool {
	s.mu.Lock()
	mine := s.started[roundKey(t.row.ID, r.Number)]
	s.mu.Unlock()
	if mine {
		return true
	}
	for i := len(t.links) - 1; i >= 0; i-- {
		if t.links[i].Type == tournament.TypeRound {
			return s.clock.Now().Sub(t.links[i].At) >= s.grace
		}
	}
	return false
}

// startTable creates table i's match of round r, every seat bound to its entrant (each
// accepted by entering), and records it. A table of bots only counts against its organiser's
// bots-only limit and takes a place in the bot pool: when either refuses, ok is false and the
// table waits for a later step.
func (s *Service) startTable(ctx context.Context, t *loaded, r *tournament.Round, i int) (ok bool, err error) {
	spec := t.st.Spec
	req := referee.CreateRequest{Partnerships: spec.Format.Partnerships(), Target: spec.Target, TurnSeconds: spec.TurnSeconds,
		Rated: spec.Rated, Entered: true}
	bots := true
	for seat, who := range r.Pairing.Tables[i].Seats {
		e, ok := t.st.Entry(who)
		if !ok {
			return false, fmt.Errorf("%w: tournament %s seats %s, who holds no entry", storeerr.ErrRecordCorrupt, t.row.ID, who)
		}
		p := domain.PlayerInfo{Seat: seat, Kind: domain.Human, Player: e.Player}
		if e.Bot != "" {
			p = domain.PlayerInfo{Seat: seat, Kind: domain.Bot, Bot: e.Bot, Name: e.Name}
		}
		bots = bots && e.Bot != ""
		req.Players = append(req.Players, p)
	}
	if r.Commitment != "" {
		seed, err := s.store.RoundSeed(ctx, t.row.ID, r.Number)
		if err != nil {
			return false, err
		}
		req.Seed = hex.EncodeToString(seed)
	}
	undo := func() {}
	s.mu.Lock()
	admit := s.admit
	s.mu.Unlock()
	if bots && admit != nil {
		if undo, ok = admit(t.st.Organiser); !ok {
			return false, nil
		}
	}
	created, err := s.matches.Create(ctx, req)
	if err != nil {
		undo()
		if errors.Is(err, referee.ErrBotsBusy) {
			return false, nil // the pool is full: the table starts as it frees
		}
		return false, fmt.Errorf("round %d table %d: %w", r.Number, i+1, err)
	}
	s.remember(created.Match.ID, t.row.ID)
	var c change
	c.add(tournament.TypeTable, tournament.TableStarted{Round: r.Number, Table: i, Match: created.Match.ID})
	if err := s.commit(ctx, t, c); err != nil {
		return false, err
	}
	for seat, who := range r.Pairing.Tables[i].Seats {
		s.tellPlayer(who, Notice{Kind: "round", Tournament: t.row.ID, Round: r.Number, Match: created.Match.ID, Seat: seat})
	}
	if i == 0 {
		for _, who := range r.Pairing.Byes {
			s.tellPlayer(who, Notice{Kind: "round", Tournament: t.row.ID, Round: r.Number, Seat: -1})
		}
	}
	return true, nil
}
