package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/allfives/allfives/cmd/allfives/internal/engine"
)

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
