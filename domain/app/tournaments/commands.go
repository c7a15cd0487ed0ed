package tournaments

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/tournament"
)

// MaxStartsAhead is how far ahead a tournament may be set to start by itself: an upcoming
// tournament holds its organiser's count and its entrants' promise, which a date years away
// would hold for nothing.
const MaxStartsAhead = 30 * 24 * time.Hour

// Create stores a new tournament organised by key's player.
func (s *Service) Create(ctx context.Context, key string, spec tournament.Spec) (_ *tournament.State, err error) {
	defer domain.Wrap(&err, "create tournament")
	who, err := s.keys.Authenticate(ctx, key)
	if err != nil {
		return nil, err
	}
	spec.Name = strings.TrimSpace(spec.Name)
	if spec.TurnSeconds == 0 {
		// Every match of a tournament has a clock, so that a player who walks away is played
		// for and the round ends (docs/tournaments.md, "Life of a tournament").
		spec.TurnSeconds = DefaultTurnSeconds
	}
	if err := spec.Check(); err != nil {
		return nil, domain.Invalidf("%s", strings.TrimPrefix(err.Error(), tournament.ErrInvalid.Error()+": "))
	}
	now := s.clock.Now()
	if spec.StartsAt != nil {
		at := spec.StartsAt.UTC()
		if !at.After(now) {
			return nil, domain.Invalidf("starts_at must be in the future; leave it out and start the tournament yourself")
		}
		if at.After(now.Add(MaxStartsAhead)) {
			return nil, domain.Invalidf("starts_at must be at most %d days ahead; create the tournament nearer its start", MaxStartsAhead/(24*time.Hour))
		}
		spec.StartsAt = &at
	}
	if s.maxOrg > 0 {
		n, err := s.store.Organising(ctx, who.ID)
		if err != nil {
			return nil, err
		}
		if n >= s.maxOrg {
			return nil, fmt.Errorf("%w: %d of %d", ErrTooManyTournaments, n, s.maxOrg)
		}
	}
	id, err := s.newID()
	if err != nil {
		return nil, err
	}
	e, err := tournament.NewEvent(1, tournament.TypeCreated, now, tournament.Created{Spec: spec, Organiser: who.ID, OrganiserName: who.Name})
	if err != nil {
		return nil, err
	}
	links, err := tournament.Chain("", []tournament.Event{e})
	if err != nil {
		return nil, err
	}
	row := Row{ID: id, Name: spec.Name, Status: tournament.Upcoming, Organiser: who.ID, CreatedAt: now, UpdatedAt: now,
		StartsAt: spec.StartsAt, Version: 1, HeadHash: links[0].Hash}
	if err := s.store.CreateTournament(ctx, row, links); err != nil {
		return nil, err
	}
	return tournament.Fold(id, []tournament.Event{e})
}

// Enter adds an entry to upcoming tournament id: key's player, or, when bot names a
// strategy, that bot (the organiser's key only).
func (s *Service) Enter(ctx context.Context, id, key, bot string) (_ tournament.Entrant, err error) {
	defer domain.Wrap(&err, "enter tournament %s", id)
	unlock := s.lock(id)
	defer unlock()
	t, err := s.load(ctx, id)
	if err != nil {
		return tournament.Entrant{}, err
	}
	var entry tournament.Entrant
	if bot != "" {
		if _, err := s.organiserOf(ctx, t, key); err != nil {
			return tournament.Entrant{}, err
		}
		if !slices.Contains(s.matches.BotNames(), bot) {
			return tournament.Entrant{}, domain.Invalidf("bot %q is not a strategy; choose one of %s", domain.Truncate(bot, 32), strings.Join(s.matches.BotNames(), ", "))
		}
		entry = s.botEntry(t.st, bot)
		if t.st.Spec.Rated && entry.Player != referee.BotPlayer(bot) {
			return tournament.Entrant{}, domain.Invalidf("bot %s has entered already: the players of a rated tournament are distinct, so each bot enters once", bot)
		}
	} else {
		who, err := s.keys.Authenticate(ctx, key)
		if err != nil {
			return tournament.Entrant{}, err
		}
		entry = tournament.Entrant{Player: who.ID, Name: who.Name}
	}
	switch {
	case t.st.Status != tournament.Upcoming:
		return tournament.Entrant{}, fmt.Errorf("%w: it is %s", ErrTournamentClosed, t.st.Status)
	case t.st.Entered(entry.Player):
		return tournament.Entrant{}, ErrAlreadyEntered
	case len(t.st.Entries) >= t.st.Spec.MaxEntries:
		return tournament.Entrant{}, fmt.Errorf("%w (%d)", ErrTournamentFull, t.st.Spec.MaxEntries)
	}
	if s.rater != nil {
		entry.Rating = s.rater(ctx, ratedAs(entry), t.st.Spec.Format)
	}
	var c change
	c.add(tournament.TypeEntered, entry)
	if err := s.commit(ctx, t, c); err != nil {
		return tournament.Entrant{}, conflictIsBusy(err)
	}
	return entry, nil
}

// ratedAs is the player whose rating an entry carries: a bot's player for every entry of it.
func ratedAs(e tournament.Entrant) string {
	if e.Bot != "" {
		return referee.BotPlayer(e.Bot)
	}
	return e.Player
}

// botEntry is the next entry of strategy bot: its player, bot-greedy, then bot-greedy-2 and so
// on in a tournament that is not rated, where a bot may enter more than once.
func (s *Service) botEntry(st *tournament.State, bot string) tournament.Entrant {
	base := referee.BotPlayer(bot)
	e := tournament.Entrant{Player: base, Name: base, Bot: bot}
	for n := 2; st.Entered(e.Player); n++ {
		e.Player, e.Name = fmt.Sprintf("%s-%d", base, n), fmt.Sprintf("%s %d", base, n)
	}
	return e
}

// Withdraw removes player's entry before the start: key is the player's own, or the
// organiser's for any entry; player "me" is key's player.
func (s *Service) Withdraw(ctx context.Context, id, key, player string) (err error) {
	defer domain.Wrap(&err, "withdraw from tournament %s", id)
	unlock := s.lock(id)
	defer unlock()
	t, err := s.load(ctx, id)
	if err != nil {
		return err
	}
	who, err := s.keys.Authenticate(ctx, key)
	if err != nil {
		return err
	}
	if player == referee.Me {
		player = who.ID
	}
	switch {
	case player != who.ID && who.ID != t.st.Organiser:
		return ErrNotOrganiser
	case t.st.Status != tournament.Upcoming:
		return fmt.Errorf("%w: it is %s", ErrTournamentClosed, t.st.Status)
	case !t.st.Entered(player):
		return domain.Detailf(players.ErrPlayerNotFound, "player %q holds no entry", domain.Truncate(player, 64))
	}
	var c change
	c.add(tournament.TypeWithdrawn, tournament.Withdrawn{Player: player})
	return conflictIsBusy(s.commit(ctx, t, c))
}

// Start starts upcoming tournament id at its organiser's word, before its start time.
func (s *Service) Start(ctx context.Context, id, key string) (err error) {
	defer domain.Wrap(&err, "start tournament %s", id)
	unlock := s.lock(id)
	t, err := s.load(ctx, id)
	if err == nil {
		if _, err = s.organiserOf(ctx, t, key); err == nil {
			err = s.start(ctx, t)
		}
	}
	unlock()
	if err != nil {
		return conflictIsBusy(err)
	}
	return s.Advance(ctx, id)
}

// start appends tournament.started with the entries as they stand.
func (s *Service) start(ctx context.Context, t *loaded) error {
	if t.st.Status != tournament.Upcoming {
		return fmt.Errorf("%w: it is %s", ErrTournamentClosed, t.st.Status)
	}
	if n := len(t.st.Entries); n < t.st.Spec.MinEntries {
		return fmt.Errorf("%w: %d of %d", ErrTooFewEntries, n, t.st.Spec.MinEntries)
	}
	var playing []string
	for _, e := range t.st.Entries {
		playing = append(playing, e.Player)
	}
	var c change
	c.add(tournament.TypeStarted, tournament.Started{Entrants: playing, Rounds: t.st.Spec.PlannedRounds(len(playing))})
	return s.commit(ctx, t, c)
}

// Cancel ends tournament id at its organiser's word before it finished (cancel).
func (s *Service) Cancel(ctx context.Context, id, key string) (err error) {
	defer domain.Wrap(&err, "cancel tournament %s", id)
	unlock := s.lock(id)
	defer unlock()
	t, err := s.load(ctx, id)
	if err != nil {
		return err
	}
	who, err := s.organiserOf(ctx, t, key)
	if err != nil {
		return err
	}
	if t.st.Status == tournament.Finished || t.st.Status == tournament.StatusCancelled {
		return fmt.Errorf("%w: it is %s", ErrTournamentClosed, t.st.Status)
	}
	return conflictIsBusy(s.cancel(ctx, t, who.ID))
}

// cancel ends t at by's word (docs/tournaments.md, "Life of a tournament"). First every match
// of its round still being played ends cancelled (never rated), so that no match dealt from a
// seed is played once the seed is public; then one append logs the results of the tables
// that had ended and not yet been logged (a duplicate round's wait for its end), and
// tournament.cancelled, which reveals a duplicate round's seed and ends the round.
func (s *Service) cancel(ctx context.Context, t *loaded, by string) error {
	var c change
	cancelled := tournament.Cancelled{By: by, Reason: "organiser"}
	if r := t.st.Current(); r != nil && !r.Ended {
		for i, m := range r.Matches {
			if m == "" || r.Results[i] != nil {
				continue
			}
			if _, err := s.matches.CancelForTournament(ctx, m); err != nil {
				return fmt.Errorf("round %d table %d: %w", r.Number, i+1, err)
			}
			// A match that ended before its cancel could land keeps its result.
			res, done, err := s.result(ctx, t, r, i, m)
			if err != nil && !errors.Is(err, errTableCancelled) {
				return err
			}
			if done {
				c.add(tournament.TypeResult, res)
			}
		}
		if r.Commitment != "" {
			seed, err := s.store.RoundSeed(ctx, t.row.ID, r.Number)
			if err != nil {
				return err
			}
			c.reveal, cancelled.Seed = r.Commitment, hex.EncodeToString(seed)
		}
	}
	c.add(tournament.TypeCancelled, cancelled)
	if err := s.commit(ctx, t, c); err != nil {
		return err
	}
	if r := t.st.Current(); r != nil {
		s.mu.Lock()
		for _, m := range r.Matches {
			delete(s.tables, m)
		}
		s.mu.Unlock()
	}
	return nil
}

// conflictIsBusy answers a command that lost a race with another instance as the store being
// busy: the client retries, and the command is decided again on the log as it is.
func conflictIsBusy(err error) error {
	if errors.Is(err, ErrConflict) {
		return fmt.Errorf("%w: the tournament moved on meanwhile", storeerr.ErrStoreBusy)
	}
	return err
}
