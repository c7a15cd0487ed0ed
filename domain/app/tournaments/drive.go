package tournaments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/tournament"
)

// maxSteps bounds the steps of one Advance: far more than any tournament takes between two
// match ends (a round of 128 tables and its next round).
const maxSteps = 1000

// Advance does whatever tournament id is due: starts it at its start time, records the
// results of matches that ended, ends a round whose last match ended (revealing a duplicate
// round's seed), pairs and starts the next round, creates its matches, and ends the
// tournament after its last round. Losing a race with another instance is no error: the
// winner did the step.
func (s *Service) Advance(ctx context.Context, id string) error {
	unlock := s.lock(id)
	defer unlock()
	for range 3 {
		err := s.advance(ctx, id)
		if !errors.Is(err, ErrConflict) {
			return err
		}
	}
	return nil
}

func (s *Service) advance(ctx context.Context, id string) error {
	t, err := s.load(ctx, id)
	if err != nil {
		return err
	}
	for range maxSteps {
		progressed, err := s.step(ctx, t)
		if err != nil || !progressed {
			return err
		}
	}
	return fmt.Errorf("tournament %s: no end after %d steps", id, maxSteps)
}

// step takes one step of t, reporting whether it did anything.
func (s *Service) step(ctx context.Context, t *loaded) (bool, error) {
	st := t.st
	switch st.Status {
	case tournament.Upcoming:
		if st.Spec.StartsAt == nil || s.clock.Now().Before(*st.Spec.StartsAt) {
			return false, nil
		}
		if len(st.Entries) < st.Spec.MinEntries {
			var c change
			c.add(tournament.TypeCancelled, tournament.Cancelled{By: "server", Reason: "too_few_entries"})
			return true, s.commit(ctx, t, c)
		}
		return true, s.start(ctx, t)
	case tournament.Running:
	default:
		return false, nil
	}
	r := st.Current()
	if r == nil || r.Ended {
		if len(st.Rounds) >= st.PlannedRounds {
			var c change
			c.add(tournament.TypeEnded, tournament.Ended{Standings: st.Standings()})
			if err := s.commit(ctx, t, c); err != nil {
				return false, err
			}
			s.tell(t, tournament.TypeEnded)
			return true, nil
		}
		return true, s.startRound(ctx, t)
	}
	for i, m := range r.Matches {
		if m == "" {
			if !s.mayCreate(t, r) {
				return false, nil
			}
			return true, s.startTable(ctx, t, r, i)
		}
		s.remember(m, t.row.ID)
	}
	for i, m := range r.Matches {
		if r.Results[i] != nil {
			continue
		}
		res, done, err := s.result(ctx, t, r, i, m)
		if err != nil || !done {
			if err != nil {
				return false, err
			}
			continue
		}
		var c change
		c.add(tournament.TypeResult, res)
		return true, s.commit(ctx, t, c)
	}
	if !r.RoundDone() {
		return false, nil
	}
	return true, s.endRound(ctx, t, r)
}

// startRound pairs and commits the next round; a duplicate round draws its secret seed and
// commits to it in the same append, which stores the seed under its commitment.
func (s *Service) startRound(ctx context.Context, t *loaded) error {
	n := len(t.st.Rounds) + 1
	rs := tournament.RoundStarted{Round: n, Pairing: t.st.NextPairing()}
	var c change
	if t.st.Spec.Duplicate {
		seed := make([]byte, 32)
		if _, err := io.ReadFull(s.random, seed); err != nil {
			return err
		}
		sum := sha256.Sum256(seed)
		rs.Commitment = hex.EncodeToString(sum[:])
		c.seal = &Seal{Commitment: rs.Commitment, Round: n, Seed: seed}
	}
	c.add(tournament.TypeRound, rs)
	if err := s.commit(ctx, t, c); err != nil {
		return err
	}
	s.mu.Lock()
	s.started[roundKey(t.row.ID, n)] = true
	s.mu.Unlock()
	return nil
}

func roundKey(id string, round int) string { return fmt.Sprintf("%s/%d", id, round) }

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
// accepted by entering), and records it.
func (s *Service) startTable(ctx context.Context, t *loaded, r *tournament.Round, i int) error {
	spec := t.st.Spec
	req := referee.CreateRequest{Partnerships: spec.Format.Partnerships(), Target: spec.Target, TurnSeconds: spec.TurnSeconds,
		Rated: spec.Rated, Entered: true}
	for seat, who := range r.Pairing.Tables[i].Seats {
		e, ok := t.st.Entry(who)
		if !ok {
			return fmt.Errorf("%w: tournament %s seats %s, who holds no entry", domain.ErrRecordCorrupt, t.row.ID, who)
		}
		p := domain.PlayerInfo{Seat: seat, Kind: domain.Human, Player: e.Player}
		if e.Bot != "" {
			p = domain.PlayerInfo{Seat: seat, Kind: domain.Bot, Bot: e.Bot, Name: e.Name}
		}
		req.Players = append(req.Players, p)
	}
	if r.Commitment != "" {
		seed, err := s.store.RoundSeed(ctx, t.row.ID, r.Number)
		if err != nil {
			return err
		}
		req.Seed = hex.EncodeToString(seed)
	}
	created, err := s.matches.Create(ctx, req)
	if err != nil {
		return fmt.Errorf("round %d table %d: %w", r.Number, i+1, err)
	}
	s.remember(created.Match.ID, t.row.ID)
	var c change
	c.add(tournament.TypeTable, tournament.TableStarted{Round: r.Number, Table: i, Match: created.Match.ID})
	if err := s.commit(ctx, t, c); err != nil {
		return err
	}
	for seat, who := range r.Pairing.Tables[i].Seats {
		s.tellPlayer(who, Notice{Kind: "round", Tournament: t.row.ID, Round: r.Number, Match: created.Match.ID, Seat: seat})
	}
	if i == 0 {
		for _, who := range r.Pairing.Byes {
			s.tellPlayer(who, Notice{Kind: "round", Tournament: t.row.ID, Round: r.Number, Seat: -1})
		}
	}
	return nil
}

// result reads table i's match: done once it ended, with each seat's side's final score.
func (s *Service) result(ctx context.Context, t *loaded, r *tournament.Round, i int, id string) (tournament.Result, bool, error) {
	f, err := s.facts(ctx, t.st, id)
	if err != nil || !f.Finished {
		return tournament.Result{}, false, err
	}
	return tournament.Result{Round: r.Number, Table: i, Match: id, Seats: r.Pairing.Tables[i].Seats, Scores: f.Scores}, true, nil
}

// endRound ends r, revealing its seed, which unseals its matches.
func (s *Service) endRound(ctx context.Context, t *loaded, r *tournament.Round) error {
	re := tournament.RoundEnded{Round: r.Number}
	var c change
	if r.Commitment != "" {
		seed, err := s.store.RoundSeed(ctx, t.row.ID, r.Number)
		if err != nil {
			return err
		}
		re.Seed, c.reveal = hex.EncodeToString(seed), r.Commitment
	}
	c.add(tournament.TypeRoundEnd, re)
	if err := s.commit(ctx, t, c); err != nil {
		return err
	}
	s.mu.Lock()
	for _, m := range r.Matches {
		delete(s.tables, m)
	}
	s.mu.Unlock()
	return nil
}

func (s *Service) remember(match, id string) {
	s.mu.Lock()
	s.tables[match] = id
	s.mu.Unlock()
}

func (s *Service) tell(t *loaded, typ tournament.EventType) {
	if typ != tournament.TypeEnded {
		return
	}
	for _, p := range t.st.Playing {
		s.tellPlayer(p, Notice{Kind: "tournament_ended", Tournament: t.row.ID, Seat: -1})
	}
}

func (s *Service) tellPlayer(player string, n Notice) {
	s.mu.Lock()
	notify := s.notify
	s.mu.Unlock()
	if notify != nil && !referee.IsBotPlayer(player) {
		notify(player, n)
	}
}
