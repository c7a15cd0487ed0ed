package tournaments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"

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
	progressed, err := s.stepRound(ctx, t, r)
	if errors.Is(err, errTableCancelled) {
		// A table's match was cancelled with the tournament: a cancel that stopped before
		// it was logged (an instance died), which only the organiser begins. Finish it.
		return true, s.cancel(ctx, t, t.st.Organiser)
	}
	return progressed, err
}

// stepRound takes one step of round r, running: creates a missing table, records a result,
// or ends the round.
func (s *Service) stepRound(ctx context.Context, t *loaded, r *tournament.Round) (bool, error) {
	if slices.Contains(r.Matches, "") && !s.mayCreate(t, r) {
		// Another process creates the missing tables: it alone appends until they exist, so
		// that its table.started never loses a race with this one's appends.
		return false, nil
	}
	created, waiting, err := s.createTables(ctx, t, r)
	if err != nil || created {
		return created, err
	}
	if r.Commitment != "" {
		if waiting {
			return false, nil
		}
		return s.endDuplicate(ctx, t, r)
	}
	// Any other round logs each table's result as its match ends.
	for i, m := range r.Matches {
		if m == "" || r.Results[i] != nil {
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
	if waiting || !r.RoundDone() {
		return false, nil
	}
	return true, s.endRound(ctx, t, r, nil)
}

// endDuplicate ends duplicate round r once every table's match has ended: the tables'
// results are appended with round.ended, together, so that the log, and the version, export
// and audit read from it, show nothing of a table before the round ends (docs/tournaments.md,
// "The log"). A result already logged (a log written while results were logged as tables
// ended) is kept.
func (s *Service) endDuplicate(ctx context.Context, t *loaded, r *tournament.Round) (bool, error) {
	var results []tournament.Result
	for i, m := range r.Matches {
		if r.Results[i] != nil {
			continue
		}
		res, done, err := s.result(ctx, t, r, i, m)
		if err != nil || !done {
			return false, err
		}
		results = append(results, res)
	}
	return true, s.endRound(ctx, t, r, results)
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

// errTableCancelled: a table's match was cancelled with its tournament, so it has no result.
var errTableCancelled = errors.New("the table's match was cancelled with its tournament")

// result reads table i's match: done once it ended, with each seat's side's final score.
func (s *Service) result(ctx context.Context, t *loaded, r *tournament.Round, i int, id string) (tournament.Result, bool, error) {
	f, err := s.facts(ctx, t.st, id)
	if err == nil && f.Cancelled {
		err = fmt.Errorf("round %d table %d: %w", r.Number, i+1, errTableCancelled)
	}
	if err != nil || !f.Finished {
		return tournament.Result{}, false, err
	}
	return tournament.Result{Round: r.Number, Table: i, Match: id, Seats: r.Pairing.Tables[i].Seats, Scores: f.Scores}, true, nil
}

// endRound ends r, revealing its seed, which unseals its matches, after the results given.
func (s *Service) endRound(ctx context.Context, t *loaded, r *tournament.Round, results []tournament.Result) error {
	re := tournament.RoundEnded{Round: r.Number}
	var c change
	for _, res := range results {
		c.add(tournament.TypeResult, res)
	}
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
