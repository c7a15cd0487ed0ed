// Package seeks is the application service of Play now (docs/matchmaking.md): a player's
// seeks (make, read, cancel), and the matcher that pairs them by the rule of
// domain/matchmaking into matches the referee creates with every seat bound and dealt.
//
// Exactly once: a seek is claimed for a match in the store, only while it searches, before the
// match is created; on PostgreSQL one instance at a time pairs, under an advisory lock another
// takes over when its holder dies (Store.Matching).
package seeks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/domain/openskill"
)

// Defaults of Config.
const (
	DefaultTTL         = 10 * time.Minute
	DefaultEvery       = 100 * time.Millisecond
	DefaultTurnSeconds = 60
	// DefaultPool bounds the searching seeks one pass reads, oldest first.
	DefaultPool = 10_000
)

// pairingGrace is how long a claim may stay pairing before a matcher decides it for a dead
// one: far longer than a create may take (createTimeout).
const pairingGrace = 30 * time.Second

// createTimeout bounds the create of one paired match.
const createTimeout = 10 * time.Second

// Config wires the service.
type Config struct {
	Store   Store
	Matches Matches
	Keys    Keys
	// Standings reads ratings; nil rates everyone as new.
	Standings Standings
	Rule      matchmaking.Rule
	// TTL is how long a seek searches before it expires (0: DefaultTTL).
	TTL time.Duration
	// Every is how often the matcher looks at the pool (0: DefaultEvery); a seek made on this
	// instance wakes it at once.
	Every time.Duration
	// TurnSeconds is the clock of a seek that names none (0: DefaultTurnSeconds): strangers
	// paired by the server always play on a clock, so that no one can stall another.
	TurnSeconds int
	// BotOrder lists bot strategies weakest first: of bots equally near a seeker's rating (on
	// a server where they have not yet played rated matches, all have the prior's), the weaker
	// sits first. Strategies it leaves out follow in name order.
	BotOrder []string
	// BotStart is the displayed rating the fallback gives a bot of strategy name in format f
	// while the bot's own rating there is provisional (false: none, its own or the prior's).
	// On a fresh server every bot has the prior's rating, so without it the fallback could not
	// tell level-1 from level-8; serve passes bot.LadderRating, the ladder of docs/bots.md.
	BotStart func(name string, f matchmaking.Format) (float64, bool)
	Now      func() time.Time // default time.Now
	Random   io.Reader        // default crypto/rand.Reader
	Logger   *slog.Logger     // default slog.Default()
}

// Service makes, reads and cancels seeks, and pairs them.
type Service struct {
	store     Store
	matches   Matches
	keys      Keys
	standings Standings
	rule      matchmaking.Rule
	ttl       time.Duration
	every     time.Duration
	turn      int
	botOrder  []string
	botStart  func(string, matchmaking.Format) (float64, bool)
	now       func() time.Time
	random    io.Reader
	log       *slog.Logger
	wake      chan struct{}

	passing sync.Mutex // held by a pass (PairOnce)
	pool    pool       // the pass's copy of the searching seeks (pool.go)

	mu        sync.Mutex
	lastSweep time.Time
	bots      map[matchmaking.Format][]matchmaking.Bot // botRatings'
	botsAt    time.Time
}

// New returns the service of cfg.
func New(cfg Config) *Service {
	s := &Service{
		store: cfg.Store, matches: cfg.Matches, keys: cfg.Keys, standings: cfg.Standings, rule: cfg.Rule,
		ttl: cfg.TTL, every: cfg.Every, turn: cfg.TurnSeconds, botOrder: cfg.BotOrder, botStart: cfg.BotStart, now: cfg.Now, random: cfg.Random, log: cfg.Logger,
		wake: make(chan struct{}, 1),
	}
	if s.ttl <= 0 {
		s.ttl = DefaultTTL
	}
	if s.every <= 0 {
		s.every = DefaultEvery
	}
	if s.turn <= 0 {
		s.turn = DefaultTurnSeconds
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.random == nil {
		s.random = rand.Reader
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// Request is what a player seeks.
type Request struct {
	Format      string
	Rated       bool
	TurnSeconds int // 0: the server's default clock
	Target      int // 0: the format's default, which the seek then names
}

// EffectiveTarget is the target r's match is played to: the one it names, or, for a seek
// stored naming none, its format's default.
func (r Record) EffectiveTarget() int {
	if r.Target != 0 {
		return r.Target
	}
	return DefaultTarget(r.Format)
}

// DefaultTarget is the target of a match of format f that names none (0 for no format).
func DefaultTarget(f matchmaking.Format) int {
	table, err := domain.NewTable(matchmaking.Seats(f), f == matchmaking.Format2v2)
	if err != nil {
		return 0
	}
	return table.DefaultTarget()
}

// Create makes a searching seek for the player of key.
func (s *Service) Create(ctx context.Context, key string, req Request) (Record, error) {
	who, err := s.keys.Authenticate(ctx, key)
	if err != nil {
		return Record{}, err
	}
	f := matchmaking.Format(req.Format)
	if matchmaking.Seats(f) == 0 {
		return Record{}, domain.Invalidf("format must be 2p, 3p, 4p or 2v2, not %q", domain.Truncate(req.Format, 16))
	}
	if req.TurnSeconds == 0 {
		req.TurnSeconds = s.turn
	}
	if req.TurnSeconds < domain.MinTurnSeconds || req.TurnSeconds > domain.MaxTurnSeconds {
		return Record{}, domain.Invalidf("turn_seconds must be %d to %d, not %d", domain.MinTurnSeconds, domain.MaxTurnSeconds, req.TurnSeconds)
	}
	if req.Target == 0 {
		req.Target = DefaultTarget(f) // the seek names the target its match is played to
	}
	if err := domain.ValidateTarget(req.Target); err != nil {
		return Record{}, err
	}
	ratingIn, err := s.ratingsOf(ctx, who.ID)
	if err != nil {
		return Record{}, err
	}
	r := ratingIn(f)
	id, err := s.newID()
	if err != nil {
		return Record{}, err
	}
	now := s.now().UTC()
	rec := Record{
		ID: id, Player: who.ID, Format: f, Rated: req.Rated, TurnSeconds: req.TurnSeconds, Target: req.Target,
		Rating: r, Status: StatusSearching, CreatedAt: now, ExpiresAt: now.Add(s.ttl), Seat: -1,
	}
	if err := s.store.PutSeek(ctx, rec); err != nil {
		return Record{}, err
	}
	s.Wake()
	return rec, nil
}

// Get returns seek id of the player of key; another player's is ErrSeekNotFound.
func (s *Service) Get(ctx context.Context, key, id string) (Record, error) {
	who, err := s.keys.Authenticate(ctx, key)
	if err != nil {
		return Record{}, err
	}
	r, ok, err := s.store.Seek(ctx, id)
	if err != nil {
		return Record{}, err
	}
	if !ok || r.Player != who.ID {
		return Record{}, fmt.Errorf("seek %q: %w", domain.Truncate(id, 40), ErrSeekNotFound)
	}
	return s.shown(r), nil
}

// Cancel cancels seek id of the player of key and returns it as it ends up: cancelled, or
// matched (or pairing) when the matcher claimed it first.
func (s *Service) Cancel(ctx context.Context, key, id string) (Record, error) {
	if _, err := s.Get(ctx, key, id); err != nil {
		return Record{}, err
	}
	r, ok, err := s.store.CancelSeek(ctx, id, s.now().UTC(), ReasonCancelled)
	if err != nil {
		return Record{}, err
	}
	if !ok {
		return Record{}, fmt.Errorf("seek %q: %w", domain.Truncate(id, 40), ErrSeekNotFound)
	}
	return s.shown(r), nil
}

// EndPlayer cancels every searching seek of player: its key was rotated, and a seek lasts no
// longer than the key it was made with.
func (s *Service) EndPlayer(ctx context.Context, player string) error {
	_, err := s.store.CancelSeeksOf(ctx, player, s.now().UTC(), ReasonKeyRotated)
	return err
}

// SeekOfMatch is the id of player's seek that match was made from; "" when it came from none.
func (s *Service) SeekOfMatch(ctx context.Context, player, match string) (string, error) {
	id, _, err := s.store.SeekOfMatch(ctx, player, match)
	return id, err
}

// shown is r as its player reads it now: a searching seek past its expiry is expired, whether
// or not the matcher has swept it yet.
func (s *Service) shown(r Record) Record {
	if r.Status == StatusSearching && !s.now().Before(r.ExpiresAt) {
		r.Status, r.EndedAt = StatusExpired, r.ExpiresAt
	}
	return r
}

// ratingsOf reads player's displayed rating in each format: in a format it never played,
// the model's prior.
func (s *Service) ratingsOf(ctx context.Context, player string) (func(matchmaking.Format) float64, error) {
	fresh := openskill.Default().New().Ordinal()
	by, err := s.standingsOf(ctx, player)
	if err != nil {
		return nil, err
	}
	return func(f matchmaking.Format) float64 {
		if st, ok := by[f]; ok {
			return st.Ordinal()
		}
		return fresh
	}, nil
}

// standingsOf is the player's standing in each format it has played rated.
func (s *Service) standingsOf(ctx context.Context, player string) (map[matchmaking.Format]ratings.Standing, error) {
	by := map[matchmaking.Format]ratings.Standing{}
	if s.standings != nil {
		all, err := s.standings.PlayerStandings(ctx, player)
		if err != nil {
			return nil, err
		}
		for _, st := range all {
			by[matchmaking.Format(st.Format)] = st
		}
	}
	return by, nil
}

func (s *Service) newID() (string, error) {
	b := make([]byte, 16)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return hex.EncodeToString(b), nil
}
