package seeks

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/domain/openskill"
)

// sweepEvery is how often the matcher expires seeks and decides claims left by a dead matcher.
const sweepEvery = time.Second

// Wake makes the matcher look at the pool now rather than at its next tick.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run pairs until ctx ends: a pass every Config.Every, or at once when woken. On PostgreSQL
// every instance runs it and one at a time pairs (Store.Matching); when that instance dies,
// the next pass of another takes over.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		if _, err := s.PairOnce(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("matcher pass failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wake:
		}
	}
}

// PairOnce makes one pass of the matcher if this process may pair now, and returns the
// matches it made.
func (s *Service) PairOnce(ctx context.Context) (int, error) {
	s.passing.Lock() // one pass at a time in a process: the pool's copy is the pass's
	defer s.passing.Unlock()
	made := 0
	ran, err := s.store.Matching(ctx, func(ctx context.Context) error {
		now := s.now().UTC()
		if err := s.sweep(ctx, now); err != nil {
			return err
		}
		if err := s.refresh(ctx, now); err != nil {
			return err
		}
		byID := s.pool.seeks
		pool := make([]matchmaking.Seek, 0, len(byID))
		for _, r := range byID {
			if !now.Before(r.ExpiresAt) {
				delete(byID, r.ID) // the sweep expires it
				continue
			}
			pool = append(pool, matchmaking.Seek{ID: r.ID, Player: r.Player, Pool: poolOf(r), Format: r.Format, Rating: r.Rating, Since: r.CreatedAt})
		}
		if len(pool) == 0 {
			return nil
		}
		bots, err := s.botRatings(ctx, now)
		if err != nil {
			return err
		}
		for _, t := range matchmaking.Pair(pool, func(f matchmaking.Format) []matchmaking.Bot { return bots[f] }, now, s.rule) {
			ok, err := s.makeMatch(ctx, t, byID[t.Seats[0].Seek], now)
			var ids []string
			for _, st := range t.Seats {
				if !st.Bot() {
					ids = append(ids, st.Seek)
				}
			}
			if err != nil {
				s.pool.invalidate()
				return err
			}
			if ok {
				made++
				for _, id := range ids {
					delete(byID, id)
				}
			} else if err := s.recheck(ctx, ids); err != nil {
				s.pool.invalidate()
				return err
			}
		}
		return nil
	})
	if !ran || err != nil {
		s.pool.invalidate() // another instance pairs meanwhile, or this pass stopped midway
	}
	return made, err
}

// poolOf is what a compatible seek of r shares with it.
func poolOf(r Record) string {
	return string(r.Format) + "|" + strconv.FormatBool(r.Rated) + "|" + strconv.Itoa(r.TurnSeconds) + "|" + strconv.Itoa(r.EffectiveTarget())
}

// makeMatch claims the seeks of t for a new match, creates it, and settles them: matched, or
// searching again if the match could not be made. false when a seek of t was no longer
// searching (cancelled meanwhile).
func (s *Service) makeMatch(ctx context.Context, t matchmaking.Table, first Record, now time.Time) (bool, error) {
	id, err := s.newID()
	if err != nil {
		return false, err
	}
	var claims []Claim
	seats := make([]referee.PairedSeat, len(t.Seats))
	for i, st := range t.Seats {
		if st.Bot() {
			seats[i] = referee.PairedSeat{Bot: strings.TrimPrefix(st.Player, "bot-")}
			continue
		}
		claims = append(claims, Claim{Seek: st.Seek, Seat: i})
		seats[i] = referee.PairedSeat{Player: st.Player}
	}
	ok, err := s.store.ClaimSeeks(ctx, id, claims, now)
	if err != nil || !ok {
		return false, err
	}
	req := referee.CreateRequest{
		Partnerships: t.Format == matchmaking.Format2v2, Target: first.Target,
		TurnSeconds: first.TurnSeconds, Rated: first.Rated,
	}
	cctx, cancel := context.WithTimeout(ctx, createTimeout)
	_, err = s.matches.CreatePaired(cctx, id, req, seats)
	cancel()
	if err != nil {
		s.log.Warn("matcher could not create a paired match", "match", id, "err", err)
		// A create of unknown outcome may have committed: the store says.
		exists, xerr := s.matches.Exists(ctx, id)
		if xerr != nil {
			return false, errors.Join(err, xerr) // still pairing: the sweep decides it
		}
		return false, s.store.SettleSeeks(ctx, id, exists)
	}
	if err := s.store.SettleSeeks(ctx, id, true); err != nil {
		return false, err
	}
	return true, nil
}

// sweep, at most once per sweepEvery, expires the seeks past their time and decides the
// claims a matcher left pairing longer than pairingGrace: matched if their match exists,
// searching again if not.
func (s *Service) sweep(ctx context.Context, now time.Time) error {
	s.mu.Lock()
	due := now.Sub(s.lastSweep) >= sweepEvery
	if due {
		s.lastSweep = now
	}
	s.mu.Unlock()
	if !due {
		return nil
	}
	if _, err := s.store.ExpireSeeks(ctx, now); err != nil {
		return err
	}
	stale, err := s.store.PairingSince(ctx, now.Add(-pairingGrace))
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, r := range stale {
		if done[r.Match] {
			continue
		}
		done[r.Match] = true
		exists, err := s.matches.Exists(ctx, r.Match)
		if err != nil {
			return fmt.Errorf("decide the claim of match %s: %w", r.Match, err)
		}
		if err := s.store.SettleSeeks(ctx, r.Match, exists); err != nil {
			return err
		}
	}
	return nil
}

// botRatingsTTL is how long the matcher trusts the bots' ratings it read: they move only as
// rated matches end, and reading them on every pass would cost the store for nothing.
const botRatingsTTL = 5 * time.Second

// botRatings are the bots the server plays, by format, with their ratings in it.
func (s *Service) botRatings(ctx context.Context, now time.Time) (map[matchmaking.Format][]matchmaking.Bot, error) {
	s.mu.Lock()
	cached, at := s.bots, s.botsAt
	s.mu.Unlock()
	if cached != nil && now.Sub(at) < botRatingsTTL {
		return cached, nil
	}
	out := map[matchmaking.Format][]matchmaking.Bot{}
	names := s.matches.BotNames()
	ordered := slices.DeleteFunc(slices.Clone(s.botOrder), func(n string) bool { return !slices.Contains(names, n) })
	for _, n := range names {
		if !slices.Contains(ordered, n) {
			ordered = append(ordered, n)
		}
	}
	fresh := openskill.Default().New().Ordinal()
	for _, name := range ordered {
		player := referee.BotPlayer(name)
		by, err := s.standingsOf(ctx, player)
		if err != nil {
			return nil, err
		}
		for _, f := range formats {
			st, played := by[f]
			rating := fresh
			if played {
				rating = st.Ordinal()
			}
			// Until its own rating settles, a bot is placed where the ladder put it.
			if start, ok := s.startOf(name, f); ok && (!played || st.Provisional()) {
				rating = start
			}
			out[f] = append(out[f], matchmaking.Bot{Player: player, Rating: rating})
		}
	}
	s.mu.Lock()
	s.bots, s.botsAt = out, now
	s.mu.Unlock()
	return out, nil
}

// startOf is Config.BotStart's rating of bot name in f, if there is one.
func (s *Service) startOf(name string, f matchmaking.Format) (float64, bool) {
	if s.botStart == nil {
		return 0, false
	}
	return s.botStart(name, f)
}

var formats = []matchmaking.Format{matchmaking.Format2p, matchmaking.Format3p, matchmaking.Format4p, matchmaking.Format2v2}
