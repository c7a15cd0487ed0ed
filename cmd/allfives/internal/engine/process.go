package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ReadyTimeout is how long an engine has to say `ready` after the greeting.
const ReadyTimeout = 10 * time.Second

// ErrExited is returned once the engine's process has ended.
var ErrExited = errors.New("the engine exited")

// ErrNotReady says an engine refused the protocol or never said `ready` in time.
var ErrNotReady = errors.New("the engine did not say ready")

// Process is the connector's handle on one running engine: one per live match.
type Process struct {
	Name  string // from its `id name` line, else the command
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	log   *slog.Logger
	mu    sync.Mutex // one writer at a time
	done  chan struct{}
	stop  chan struct{} // closed by Kill: nobody reads lines any more
	once  sync.Once
}

// Start runs command (a program and its arguments, split at spaces), greets it and waits up
// to ready for its `ready`. The engine's `info` lines and stderr go to log.
func Start(ctx context.Context, command string, ready time.Duration, log *slog.Logger) (*Process, error) {
	args := strings.Fields(command)
	if len(args) == 0 {
		return nil, fmt.Errorf("no engine command")
	}
	cmd := exec.Command(args[0], args[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errs, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the engine %q: %w", args[0], err)
	}
	p := &Process{Name: args[0], cmd: cmd, in: in, lines: make(chan string, 64), log: log,
		done: make(chan struct{}), stop: make(chan struct{})}
	go p.stderr(errs)
	go p.read(out)
	if err := p.handshake(ctx, ready); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// read hands stdout's lines to lines, logging `info` lines, until the engine's stdout ends;
// then it reaps the process and closes done.
func (p *Process) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		word, rest := Split(sc.Text())
		if word == WordInfo {
			p.log.Info("engine says", "engine", p.Name, "info", rest)
			continue
		}
		select {
		case p.lines <- sc.Text():
		case <-p.stop:
		}
	}
	err := p.cmd.Wait()
	p.log.Debug("engine exited", "engine", p.Name, "err", err)
	close(p.lines)
	close(p.done)
}

func (p *Process) stderr(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		p.log.Info("engine stderr", "engine", p.Name, "line", sc.Text())
	}
}

func (p *Process) handshake(ctx context.Context, ready time.Duration) error {
	if err := p.Send(Greeting); err != nil {
		return fmt.Errorf("%w: greeting it: %v", ErrNotReady, err)
	}
	timer := time.NewTimer(ready)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return fmt.Errorf("%w: it exited before saying ready", ErrNotReady)
			}
			word, rest := Split(line)
			switch word {
			case WordReady:
				return nil
			case WordUnsupported:
				return fmt.Errorf("%w: it answered unsupported to %q", ErrNotReady, Greeting)
			case WordID:
				if name, ok := strings.CutPrefix(rest, "name "); ok && name != "" {
					p.Name = name
				}
			}
		case <-timer.C:
			return fmt.Errorf("%w within %s", ErrNotReady, ready)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Send writes one line to the engine.
func (p *Process) Send(line string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		return fmt.Errorf("%w: %v", ErrExited, err)
	}
	return nil
}

// Move sends a `go` line and waits for the engine's `move`, skipping lines it does not know.
// It answers the rest of the move line, ctx's error, or ErrExited.
func (p *Process) Move(ctx context.Context, goLine string) (string, error) {
	if err := p.Send(goLine); err != nil {
		return "", err
	}
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return "", ErrExited
			}
			if word, rest := Split(line); word == WordMove {
				return rest, nil
			}
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Done is closed once the engine's process has ended.
func (p *Process) Done() <-chan struct{} { return p.done }

// Quit asks the engine to quit and waits up to grace for it, then kills it.
func (p *Process) Quit(grace time.Duration) {
	p.Send(WordQuit)
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(grace):
		p.Kill()
	}
}

// Kill ends the engine's process at once and waits for it.
func (p *Process) Kill() {
	p.once.Do(func() { close(p.stop) })
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	<-p.done
}
