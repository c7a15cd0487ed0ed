package referee

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"time"
)

// ServiceConfig wires a MatchService. Zero fields take the production defaults.
type ServiceConfig struct {
	Store      EventStore
	Clock      Clock               // default SystemClock
	Random     io.Reader           // default crypto/rand.Reader: seeds, ids and tokens
	Bots       map[string]Strategy // strategies by name
	CacheSize  int                 // most matches kept in memory; 0: bounded by CacheBytes only
	CacheBytes int64               // estimated memory the cached matches may take; default 256 MiB
	// WaitingTTL is how long a waiting match's open seats may stay empty before Sweep expires
	// it; 0 means DefaultWaitingTTL, a negative value never.
	WaitingTTL time.Duration
	// BotWorkers, when positive, plays matches of bots only off the request path with that
	// many workers: Create answers at once with the match in progress (docs/api.md, "Matches
	// of bots"). Zero plays them inside Create, for tools that want a finished match back.
	BotWorkers int
	Logger     *slog.Logger // default slog.Default()
	// Pause waits d, or until ctx ends (then it returns ctx's error); the referee calls it after
	// each decision of a Paced strategy, with what is left of the strategy's floor (0 when the
	// decision took longer). Default: a real timer. Tests inject one that records.
	Pause func(ctx context.Context, d time.Duration) error
	// Players authenticates player keys and finds players by id, for seats bound to players
	// (docs/api.md, "Players"); nil: a key is refused, and no seat may name a player.
	Players PlayerKeys
	// RatedTurnSeconds is the clock a rated match created without turn_seconds takes; 0 means
	// DefaultRatedTurnSeconds.
	RatedTurnSeconds int
	// RematchTTL is how long the seats a rematch offer reserves have to be taken before the
	// sweeper cancels it; 0 means DefaultRematchTTL.
	RematchTTL time.Duration
}

// DefaultRatedTurnSeconds is the clock of a rated match created without one.
const DefaultRatedTurnSeconds = 60

// DefaultRematchTTL is how long a rematch offer stands.
const DefaultRematchTTL = 10 * time.Minute

// sleep waits d, or until ctx ends, when it returns ctx's error: ServiceConfig.Pause's default.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// DefaultCacheBytes bounds the match cache when ServiceConfig.CacheBytes is 0.
const DefaultCacheBytes = 256 << 20

// NewMatchService returns a service over cfg.Store.
func NewMatchService(cfg ServiceConfig) *MatchService {
	if cfg.Clock == nil {
		cfg.Clock = SystemClock{}
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	switch {
	case cfg.WaitingTTL == 0:
		cfg.WaitingTTL = DefaultWaitingTTL
	case cfg.WaitingTTL < 0:
		cfg.WaitingTTL = 0
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Pause == nil {
		cfg.Pause = sleep
	}
	if cfg.RatedTurnSeconds == 0 {
		cfg.RatedTurnSeconds = DefaultRatedTurnSeconds
	}
	if cfg.RematchTTL == 0 {
		cfg.RematchTTL = DefaultRematchTTL
	}
	s := &MatchService{
		store: cfg.Store, clock: cfg.Clock, random: cfg.Random, bots: cfg.Bots,
		cache: newMatchCache(cfg.CacheSize, cfg.CacheBytes), waitingTTL: cfg.WaitingTTL, log: cfg.Logger,
		pause: cfg.Pause, keys: cfg.Players, ratedTurnSeconds: cfg.RatedTurnSeconds, rematchTTL: cfg.RematchTTL,
	}
	if cfg.BotWorkers > 0 {
		s.pool = newBotPool(s, cfg.BotWorkers, cfg.Logger)
	}
	return s
}
