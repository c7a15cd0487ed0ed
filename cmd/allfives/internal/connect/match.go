package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
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

// turn asks the engine for a move until it gives a legal one, at most maxIllegal times, and
// sends it.
func (g *game) turn(ctx context.Context, v *view) error {
	var legal []engine.LegalMove
	if err := json.Unmarshal(v.LegalMoves, &legal); err != nil || len(legal) == 0 {
		return err
	}
	for tries := 0; tries < maxIllegal; tries++ {
		line := fmt.Sprintf("%s %d %s", engine.WordGo, msLeft(v, g.seat), compact(v.LegalMoves))
		rest, err := g.ask(ctx, v, line)
		if err != nil || rest == "" {
			return err
		}
		mv, err := engine.ParseMove(rest)
		if err == nil && !contains(legal, mv) {
			err = fmt.Errorf("%s is not one of the legal moves", rest)
		}
		if err == nil {
			err = g.send(ctx, v.Version, mv)
			if stale(err) {
				g.log.Info("the match moved on before the move arrived", "version", v.Version, "err", err)
				return nil
			}
			if err == nil || !refused(err) {
				return err
			}
		}
		g.log.Warn("illegal move", "version", v.Version, "answer", rest, "err", err)
		g.proc.Send(engine.WordError + " " + err.Error())
	}
	g.log.Warn("three illegal answers: the turn is left to the clock's autoplay", "version", v.Version)
	g.gaveUp = v.Version
	return nil
}

// ask sends go and waits for the engine's move. While it thinks, news of the match that
// ends its turn (the clock's autoplay played it, or the match ended) stops the wait: the
// answer, when it comes, is for a turn that is gone, and the engine is started afresh.
func (g *game) ask(ctx context.Context, v *view, line string) (string, error) {
	type answer struct {
		rest string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		rest, err := g.proc.Move(ctx, line)
		got <- answer{rest, err}
	}()
	for {
		select {
		case a := <-got:
			if errors.Is(a.err, engine.ErrExited) {
				return "", nil // run's loop sees the exit and starts the engine again
			}
			return a.rest, a.err
		case <-g.wake:
			now, err := g.c.api.view(ctx, g.id)
			if err != nil || now.Version == v.Version {
				continue
			}
			g.log.Warn("the turn passed while the engine thought; restarting the engine", "version", v.Version)
			g.proc.Kill()
			<-got
			g.proc = nil
			return "", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// send posts the move once: its Idempotency-Key is the match and the version it was chosen
// at, so a retry, by this connector or by one started again, never plays a second move.
// Transient failures are retried with the same key.
func (g *game) send(ctx context.Context, version int, mv engine.LegalMove) error {
	body := map[string]string{"action": mv.Action}
	if mv.Action == "play" {
		body["tile"], body["end"] = mv.Tile, mv.End
	}
	h := http.Header{}
	h.Set("If-Match", strconv.Itoa(version))
	h.Set("Idempotency-Key", fmt.Sprintf("allfives-connect:%s:%d", g.id, version))
	wait := 200 * time.Millisecond
	for {
		err := g.c.api.do(ctx, http.MethodPost, "/matches/"+g.id+"/moves", body, h, nil)
		if err == nil {
			g.log.Debug("moved", "version", version, "move", mv)
			return nil
		}
		if !transient(err) || ctx.Err() != nil {
			return err
		}
		g.log.Warn("sending the move: will retry", "version", version, "err", err)
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// refused says the server refused the move as illegal (the engine's fault), not as stale.
func refused(err error) bool {
	var p *problem
	return errors.As(err, &p) && p.Status == http.StatusUnprocessableEntity && p.Code != "IDEMPOTENCY_KEY_REUSED"
}

// stale says the move came too late for its turn: the version moved on (the clock's
// autoplay played it, or this very move did, in an answer that was lost).
func stale(err error) bool {
	switch codeOf(err) {
	case "VERSION_CONFLICT", "NOT_YOUR_TURN", "MATCH_FINISHED", "IDEMPOTENCY_KEY_REUSED":
		return true
	}
	return false
}

// compact is a JSON answer on one line, as the protocol carries it.
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return bytes.TrimSpace(raw)
	}
	return b.Bytes()
}

func contains(legal []engine.LegalMove, mv engine.LegalMove) bool {
	for _, l := range legal {
		if l.Same(mv) {
			return true
		}
	}
	return false
}

// msLeft is the time left on the seat's clock, or -1 when it has none.
func msLeft(v *view, seat int) int64 {
	for _, s := range v.Seats {
		if s.Seat == seat && s.Deadline != nil {
			return max(0, time.Until(*s.Deadline).Milliseconds())
		}
	}
	return -1
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
