package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/allfives/allfives/cmd/allfives/internal/engine"
)

// maxIllegal is how many illegal answers in one turn leave the turn to the clock's autoplay.
const maxIllegal = 3

// poll is how often a match is read again when nothing was heard of it: the player's stream
// tells of every change, so this only covers a lost notice.
const poll = 5 * time.Second

// fatal is an error that stops the connector: an engine that never says ready.
type fatal struct{ err error }

func (f fatal) Error() string { return f.err.Error() }
func (f fatal) Unwrap() error { return f.err }

func isFatal(err error) bool {
	var f fatal
	return errors.As(err, &f)
}

// errNotSeated ends a game the player holds no seat of (a challenge not taken, an offer).
var errNotSeated = errors.New("not seated")

// game plays one match through one engine process.
type game struct {
	c       *Connector
	id      string
	seat    int
	log     *slog.Logger
	wake    chan struct{}
	stopped chan struct{} // closed when run has returned
	proc    *engine.Process
	sent    int // the seq of the last event the engine was sent
	gaveUp  int // the version at which the engine's illegal answers left the turn to autoplay
}

func (g *game) nudge() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// run plays the match to its end; it returns nil when the match is over, a fatal error
// when the engine cannot be started, or ctx's error.
func (g *game) run(ctx context.Context) error {
	defer func() {
		if g.proc != nil {
			g.proc.Quit(2 * time.Second)
		}
	}()
	g.gaveUp = -1
	for {
		over, err := g.step(ctx)
		switch {
		case over:
			return nil
		case isFatal(err) || errors.Is(err, errNotSeated) || ctx.Err() != nil:
			return err
		case err != nil:
			g.log.Warn("match: will try again", "err", err)
		}
		select {
		case <-g.wake:
		case <-time.After(poll):
		case <-g.died():
			g.log.Warn("the engine exited; starting it again")
			g.proc, g.sent = nil, 0
			if err := sleep(ctx, time.Second); err != nil { // an engine that dies at once is not restarted in a busy loop
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// died is closed once the engine's process has ended (never, with none running).
func (g *game) died() <-chan struct{} {
	if g.proc == nil {
		return nil
	}
	return g.proc.Done()
}

// start runs the engine for the match and tells it which match and seat it plays.
func (g *game) start(ctx context.Context) error {
	p, err := engine.Start(ctx, g.c.cfg.Engine, g.c.cfg.ReadyTimeout, g.log)
	if err != nil {
		if errors.Is(err, engine.ErrNotReady) {
			return fatal{fmt.Errorf("engine %q: %w", g.c.cfg.Engine, err)}
		}
		return err
	}
	g.log.Info("engine started", "engine", p.Name)
	g.proc, g.sent = p, 0
	return p.Send(fmt.Sprintf("%s %s seat %d", engine.WordMatch, g.id, g.seat))
}

// step reads the match, sends the engine every event it has not had, and plays the seat's
// turn when it is one. It answers whether the match is over.
func (g *game) step(ctx context.Context) (bool, error) {
	v, err := g.c.api.view(ctx, g.id)
	if err != nil {
		if codeOf(err) == "MATCH_NOT_FOUND" || codeOf(err) == "UNAUTHORIZED" {
			g.log.Warn("the match is no longer the player's to play", "err", err)
			return false, errNotSeated
		}
		return false, err
	}
	if v.You == nil {
		return false, errNotSeated
	}
	g.seat = v.You.Seat
	if g.proc == nil {
		if err := g.start(ctx); err != nil {
			return false, err
		}
	}
	if err := g.feed(ctx, v.Version); err != nil {
		return false, err
	}
	if v.over() {
		g.proc.Send(engine.WordEnd + " " + string(compact(v.raw)))
		g.log.Info("match over", "status", v.Status, "version", v.Version)
		return true, nil
	}
	if v.Turn == nil || *v.Turn != g.seat || g.gaveUp == v.Version {
		return false, nil
	}
	return false, g.turn(ctx, v)
}

// feed sends the engine every event up to version it has not had, in order.
func (g *game) feed(ctx context.Context, version int) error {
	for g.sent < version {
		events, _, err := g.c.api.events(ctx, g.id, g.sent)
		if err != nil {
			return err
		}
		if len(events) == 0 {
			return fmt.Errorf("no events after %d, though the match is at %d", g.sent, version)
		}
		for _, e := range events {
			if err := g.proc.Send(engine.WordEvent + " " + string(compact(e))); err != nil {
				return err
			}
			g.sent++
		}
	}
	return nil
}
