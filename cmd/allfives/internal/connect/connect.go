// Package connect is `allfives connect`: it plays every live match of a key's player through
// one engine process per match (the protocol of docs/engine.md), from the player's stream,
// seeking, accepting challenges and entering a tournament when asked, until --matches
// matches have ended or it is stopped. Started again after a crash it resumes every live
// match, and its moves' idempotency keys (the match and its version) never let a move be
// played twice.
package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/allfives/allfives/cmd/allfives/internal/engine"
)

// Config is what `allfives connect` is told.
type Config struct {
	Server, Key, Engine string
	Seek                string // a format to seek after each match ("2p", "3p", "4p", "2v2"); "": none
	Rated               bool
	AcceptChallenges    bool
	Tournament          string
	Matches             int // stop after this many matches ended; 0: never
	// ReadyTimeout is how long an engine has to say ready (engine.ReadyTimeout by default).
	ReadyTimeout time.Duration
	Log          *slog.Logger
}

// Connector runs one Config.
type Connector struct {
	cfg   Config
	api   *client
	log   *slog.Logger
	me    me
	mu    sync.Mutex
	games map[string]*game
	ended int
	done  chan string // a match played to its end
	fatal chan error
}

// Run plays until ctx is done (nil), --matches matches have ended (nil), or an error stops it:
// the key refused, an engine that never says ready.
func Run(ctx context.Context, cfg Config) error {
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = engine.ReadyTimeout
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	c := &Connector{cfg: cfg, api: newClient(cfg.Server, cfg.Key), log: cfg.Log,
		games: map[string]*game{}, done: make(chan string, 16), fatal: make(chan error, 1)}
	ctx, cancel := context.WithCancel(ctx)
	defer func() { cancel(); c.wait() }()
	if err := c.hello(ctx); err != nil {
		return err
	}
	notes := make(chan note, 64)
	go c.listen(ctx, notes)
	for {
		select {
		case n := <-notes:
			c.hear(ctx, n)
		case id := <-c.done:
			if c.finish(ctx, id) {
				return nil
			}
		case err := <-c.fatal:
			return err
		case <-ctx.Done():
			return nil
		}
	}
}

// hello checks the key, warns when its player is not a program, and enters and seeks as
// asked.
func (c *Connector) hello(ctx context.Context) error {
	err := retry(ctx, c.log, "reading the key's player", func() error {
		return c.api.do(ctx, http.MethodGet, "/players/me", nil, nil, &c.me)
	})
	if err != nil {
		var p *problem
		if errors.As(err, &p) && p.Status == http.StatusUnauthorized {
			return fmt.Errorf("the server refused the key (%s): check --key", p.Code)
		}
		return fmt.Errorf("reading the key's player: %w", err)
	}
	c.log = c.log.With("player", c.me.Name)
	c.log.Info("connected", "server", c.cfg.Server, "player_id", c.me.ID)
	if !c.me.Program {
		c.log.Warn("this key's player is not marked as a program: create engines' players with {\"name\": ..., \"program\": true} so their opponents know")
	}
	if c.cfg.Tournament != "" {
		err := c.api.do(ctx, http.MethodPost, "/tournaments/"+c.cfg.Tournament+"/entries", nil, nil, nil)
		switch {
		case err == nil:
			c.log.Info("entered the tournament", "tournament", c.cfg.Tournament)
		case codeOf(err) == "ALREADY_ENTERED":
			c.log.Info("already entered in the tournament", "tournament", c.cfg.Tournament)
		default:
			return fmt.Errorf("entering tournament %s: %w", c.cfg.Tournament, err)
		}
	}
	return c.seek(ctx)
}

// seek asks for a match of --seek's format, when asked to.
func (c *Connector) seek(ctx context.Context) error {
	if c.cfg.Seek == "" {
		return nil
	}
	body := map[string]any{"format": c.cfg.Seek, "rated": c.cfg.Rated}
	err := retry(ctx, c.log, "seeking", func() error {
		return c.api.do(ctx, http.MethodPost, "/seeks", body, nil, nil)
	})
	switch {
	case err == nil:
		c.log.Info("seeking a match", "format", c.cfg.Seek, "rated", c.cfg.Rated)
	case codeOf(err) == "ALREADY_SEEKING":
		c.log.Info("already seeking a match", "format", c.cfg.Seek)
	default:
		return fmt.Errorf("seeking a %s match: %w", c.cfg.Seek, err)
	}
	return nil
}

// listen follows the player's stream, opening it again whenever it ends, and after each
// opening looks for every live match the player has (those that moved while it was away).
func (c *Connector) listen(ctx context.Context, notes chan<- note) {
	wait := 200 * time.Millisecond
	for ctx.Err() == nil {
		opened := time.Now()
		go c.resume(ctx, notes)
		err := c.api.follow(ctx, notes)
		if ctx.Err() != nil {
			return
		}
		if time.Since(opened) > time.Minute {
			wait = 200 * time.Millisecond
		}
		c.log.Warn("the player's stream was lost; opening it again", "err", err, "in", wait)
		sleep(ctx, wait)
		wait = min(2*wait, 5*time.Second)
	}
}

// resume hands every live match of the player to the loop, as if the stream had told of it.
func (c *Connector) resume(ctx context.Context, notes chan<- note) {
	items, err := c.api.live(ctx, c.me.ID)
	if err != nil {
		c.log.Warn("listing the player's live matches", "err", err)
		return
	}
	for _, it := range items {
		n := note{Name: "live"}
		n.Data.Match, n.Data.Seat = it.ID, it.Seat
		select {
		case notes <- n:
		case <-ctx.Done():
			return
		}
	}
}

// hear acts on one event of the player's stream.
func (c *Connector) hear(ctx context.Context, n note) {
	switch n.Name {
	case "snapshot":
		for _, t := range n.Data.Turns {
			c.play(ctx, t.ID, t.Seat)
		}
		for _, ch := range n.Data.Challenges {
			c.challenged(ctx, ch.ID, ch.Seat)
		}
	case "challenge":
		c.challenged(ctx, n.Data.Match, n.Data.Seat)
	case "live", "turn", "started", "joined", "matched", "ended", "cancelled":
		if n.Data.Match != "" && (n.Name != "ended" && n.Name != "cancelled" || c.playing(n.Data.Match)) {
			c.play(ctx, n.Data.Match, n.Data.Seat)
		}
	}
}

func (c *Connector) playing(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.games[id]
	return ok
}

// challenged takes a seat reserved for the player, when asked to.
func (c *Connector) challenged(ctx context.Context, id string, seat int) {
	if !c.cfg.AcceptChallenges {
		c.log.Info("challenged; not accepting (--accept-challenges is off)", "match", id)
		return
	}
	err := c.api.do(ctx, http.MethodPost, fmt.Sprintf("/matches/%s/seats/%d/join", id, seat), nil, nil, nil)
	if err != nil && codeOf(err) != "ALREADY_SEATED" {
		c.log.Warn("accepting a challenge", "match", id, "err", err)
		return
	}
	c.log.Info("accepted a challenge", "match", id, "seat", seat)
	c.play(ctx, id, seat)
}

// play starts the match's game when it has none, and wakes it.
func (c *Connector) play(ctx context.Context, id string, seat int) {
	c.mu.Lock()
	g, ok := c.games[id]
	if !ok {
		g = &game{c: c, id: id, seat: seat, log: c.log.With("match", id, "seat", seat),
			wake: make(chan struct{}, 1), stopped: make(chan struct{})}
		c.games[id] = g
	}
	c.mu.Unlock()
	if ok {
		g.nudge()
		return
	}
	g.log.Info("playing")
	go func() {
		defer close(g.stopped)
		err := g.run(ctx)
		switch {
		case isFatal(err):
			select {
			case c.fatal <- fmt.Errorf("match %s: %w", id, err):
			default:
			}
		case err == nil:
			select {
			case c.done <- id:
			case <-ctx.Done():
			}
		case errors.Is(err, errNotSeated):
			g.log.Info("not seated in this match; not playing it")
		}
	}()
}

// finish counts a match played to its end and seeks again; it answers whether --matches
// matches have ended.
func (c *Connector) finish(ctx context.Context, id string) bool {
	c.ended++
	c.log.Info("match ended", "match", id, "ended", c.ended)
	if c.cfg.Matches > 0 && c.ended >= c.cfg.Matches {
		c.log.Info("played the matches asked for; stopping", "matches", c.ended)
		return true
	}
	if err := c.seek(ctx); err != nil {
		c.log.Warn("seeking again", "err", err)
	}
	return false
}

// wait lets every game's engine quit before Run returns.
func (c *Connector) wait() {
	c.mu.Lock()
	games := make([]*game, 0, len(c.games))
	for _, g := range c.games {
		games = append(games, g)
	}
	c.mu.Unlock()
	for _, g := range games {
		<-g.stopped
	}
}

// retry calls f until it succeeds, fails for good, or ctx is done.
func retry(ctx context.Context, log *slog.Logger, what string, f func() error) error {
	wait := 200 * time.Millisecond
	for {
		err := f()
		if err == nil || !transient(err) || ctx.Err() != nil {
			return err
		}
		log.Warn(what+": will retry", "err", err, "in", wait)
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, 5*time.Second)
	}
}
