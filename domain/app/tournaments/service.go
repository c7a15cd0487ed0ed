package tournaments

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/tournament"
)

// Keys authenticates player keys and finds players: players.Service implements it.
type Keys interface {
	Authenticate(ctx context.Context, key string) (players.Player, error)
	Profile(ctx context.Context, id string) (players.Profile, error)
}

// Rater is a player's rating in a format when it enters (mu - 3 sigma), the Swiss's order
// between equal points; nil rates everyone 0.
type Rater func(ctx context.Context, player string, format tournament.Format) float64

// DefaultTurnSeconds is the clock of a tournament's matches created without one.
const DefaultTurnSeconds = 60

// DefaultMaxOrganising is how many tournaments one player may have upcoming or running.
const DefaultMaxOrganising = 3

// DefaultTableGrace is how long a round's table may wait for its match before an instance
// other than the one that started the round creates it (after a crash mid-round).
const DefaultTableGrace = 30 * time.Second

// Config wires a Service. Zero fields take the defaults.
type Config struct {
	Store   Store
	Matches *referee.MatchService
	Players Keys
	Rater   Rater
	Clock   referee.Clock
	Random  io.Reader
	Logger  *slog.Logger
	// MaxOrganising bounds the tournaments one player has upcoming or running (0: the
	// default; negative: no bound).
	MaxOrganising int
	TableGrace    time.Duration
	// Notify, when set, hears each tournament event a player should be told of (docs/api-tournaments.md,
	// "Tournaments"): round (the player's table) and tournament_ended.
	Notify func(player string, n Notice)
	// AdmitBots, when set, is the limit a table of bots only counts against before it is
	// created (SetBotAdmission).
	AdmitBots BotAdmission
}

// BotAdmission counts a tournament's table of bots only against its organiser's bots-only
// limit (docs/tournaments.md, "Limits"): ok is false when the limit refuses it now, and the
// table waits; undo gives the count back when the table is not created after all.
type BotAdmission func(organiser string) (undo func(), ok bool)

// Notice is what a player's stream is told of a tournament.
type Notice struct {
	Kind       string // "round" or "tournament_ended"
	Tournament string
	Round      int
	Match      string // the player's match this round; "" for a bye
	Seat       int    // the player's seat in Match; -1 for a bye
}

// Service runs tournaments. It is safe for concurrent use; commands on one tournament are
// serialized in this process, and across instances by the log's expected version.
type Service struct {
	store   Store
	matches *referee.MatchService
	keys    Keys
	rater   Rater
	clock   referee.Clock
	random  io.Reader
	log     *slog.Logger
	maxOrg  int
	grace   time.Duration
	notify  func(string, Notice)
	admit   BotAdmission

	mu      sync.Mutex
	locks   map[string]*sync.Mutex
	tables  map[string]string // match id -> tournament id, for the matches of running rounds
	started map[string]bool   // "id/round" of rounds this process started
	kick    chan string
}

// New returns a service over cfg.Store and installs its sealer in cfg.Matches.
func New(cfg Config) *Service {
	if cfg.Clock == nil {
		cfg.Clock = referee.SystemClock{}
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxOrganising == 0 {
		cfg.MaxOrganising = DefaultMaxOrganising
	}
	if cfg.TableGrace == 0 {
		cfg.TableGrace = DefaultTableGrace
	}
	s := &Service{store: cfg.Store, matches: cfg.Matches, keys: cfg.Players, rater: cfg.Rater, clock: cfg.Clock,
		random: cfg.Random, log: cfg.Logger, maxOrg: cfg.MaxOrganising, grace: cfg.TableGrace, notify: cfg.Notify, admit: cfg.AdmitBots,
		locks: map[string]*sync.Mutex{}, tables: map[string]string{}, started: map[string]bool{}, kick: make(chan string, 1024)}
	cfg.Matches.SetSealer(s.sealed)
	return s
}

// sealed is the referee's Sealer: a match dealt from a duplicate round's seed not yet revealed.
func (s *Service) sealed(ctx context.Context, _, commitment string) (bool, error) {
	return s.store.SealedCommitment(ctx, commitment)
}

// lock serializes commands on tournament id in this process.
func (s *Service) lock(id string) func() {
	s.mu.Lock()
	l := s.locks[id]
	if l == nil {
		l = &sync.Mutex{}
		s.locks[id] = l
	}
	s.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// loaded is a tournament as read from the store.
type loaded struct {
	row   Row
	links []tournament.Link
	st    *tournament.State
}

func (s *Service) load(ctx context.Context, id string) (*loaded, error) {
	if id == "" || len(id) > 64 {
		return nil, ErrTournamentNotFound
	}
	row, links, err := s.store.Tournament(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: no tournament has the id %q", ErrTournamentNotFound, id)
	}
	if err != nil {
		return nil, err
	}
	events := make([]tournament.Event, len(links))
	for i, l := range links {
		events[i] = l.Event
	}
	st, err := tournament.Fold(id, events)
	if err != nil {
		return nil, fmt.Errorf("%w: tournament %s: %v", storeerr.ErrRecordCorrupt, id, err)
	}
	return &loaded{row: row, links: links, st: st}, nil
}

// change is what one command appends.
type change struct {
	events []pending
	seal   *Seal
	reveal string
}

type pending struct {
	typ  tournament.EventType
	data any
}

func (c *change) add(typ tournament.EventType, data any) {
	c.events = append(c.events, pending{typ, data})
}

// commit appends c to t's log at t's version, and folds it into t.
func (s *Service) commit(ctx context.Context, t *loaded, c change) error {
	now := s.clock.Now()
	var events []tournament.Event
	for i, p := range c.events {
		e, err := tournament.NewEvent(t.st.Version+i+1, p.typ, now, p.data)
		if err != nil {
			return err
		}
		events = append(events, e)
	}
	// The head is the last link read, not the row's head_hash: the row and the log are read
	// apart, and another instance may append between the two reads.
	head := t.row.HeadHash
	if n := len(t.links); n > 0 {
		head = t.links[n-1].Hash
	}
	links, err := tournament.Chain(head, events)
	if err != nil {
		return err
	}
	next := *t.st
	for _, e := range events {
		if err := next.Apply(e); err != nil {
			return fmt.Errorf("tournament %s: %w", t.row.ID, err)
		}
	}
	row := t.row
	row.Status, row.UpdatedAt, row.Version, row.HeadHash = next.Status, now, next.Version, links[len(links)-1].Hash
	if err := s.store.AppendTournament(ctx, Append{ID: row.ID, Expected: t.st.Version, Links: links, Row: row, Seal: c.seal, Reveal: c.reveal}); err != nil {
		return err
	}
	t.row, t.links, t.st = row, append(t.links, links...), &next
	return nil
}

// organiserOf authenticates key as t's organiser.
func (s *Service) organiserOf(ctx context.Context, t *loaded, key string) (players.Player, error) {
	who, err := s.keys.Authenticate(ctx, key)
	if err != nil {
		return players.Player{}, err
	}
	if who.ID != t.st.Organiser {
		return players.Player{}, ErrNotOrganiser
	}
	return who, nil
}

func (s *Service) newID() (string, error) {
	b := make([]byte, 16)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// SetNotify makes the service tell fn of each notice for a player (Config.Notify): the API's
// player streams subscribe through it.
func (s *Service) SetNotify(fn func(player string, n Notice)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notify = fn
}

// SetBotAdmission makes every table of bots only count against fn before it is created
// (Config.AdmitBots): the API counts them against the organiser's bots-only limit.
func (s *Service) SetBotAdmission(fn BotAdmission) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.admit = fn
}
