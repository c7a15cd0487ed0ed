package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// binServer is the real allfives binary serving on a loopback port.
type binServer struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{} // closed once the process has exited
}

// buildBinary compiles this command once for the test.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "allfives")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServer runs `allfives serve` on db, with extra flags after its own, and waits for its
// "listening" line.
func startServer(t *testing.T, bin, db string, extra ...string) *binServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--limits", "off", "--addr", "127.0.0.1:0", "--db", db, "--sync", "full"}, extra...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &binServer{cmd: cmd, done: make(chan struct{})}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		var l struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &l) == nil && l.Msg == "listening" {
			s.addr = l.Addr
			break
		}
	}
	if s.addr == "" {
		cmd.Process.Kill()
		t.Fatalf("the server never said it was listening: %v", cmd.Wait())
	}
	go func() {
		_, _ = io.Copy(io.Discard, stdout) // keep draining, so the server never blocks on its log
		_ = cmd.Wait()                     // killed, by the test or its cleanup
		close(s.done)
	}()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		<-s.done
	})
	return s
}

// TestCrashKeepsAcknowledgedMoves: 32 clients move concurrently, each in its own match,
// through the group commit; the server is killed with SIGKILL in the middle of it. Restarted
// on the same file, every match holds at least every move that was acknowledged, and every
// match audits clean (hash chain, rules, read model, deals).
func TestCrashKeepsAcknowledgedMoves(t *testing.T) {
	ctx := context.Background()
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "crash.db")
	srv := startServer(t, bin, db)
	c := newBenchClient(srv.addr, 32)

	const movers, killAfter, most = 32, 400, 60
	var acked atomic.Int64
	var killed atomic.Bool
	kill := sync.OnceFunc(func() {
		killed.Store(true)
		if err := srv.cmd.Process.Kill(); err != nil { // SIGKILL: no shutdown, no last checkpoint
			t.Error(err)
		}
	})
	var mu sync.Mutex
	last := map[string]int{} // match id -> highest version acknowledged
	tokens := map[string]benchMatch{}
	var wg sync.WaitGroup
	errs := make([]error, movers)
	for i := range movers {
		wg.Go(func() {
			errs[i] = moveUntilKilled(ctx, c, most, &killed, func(m benchMatch, version int) {
				mu.Lock()
				last[m.ID], tokens[m.ID] = max(last[m.ID], version), m
				mu.Unlock()
				if acked.Add(1) == killAfter {
					kill()
				}
			})
		})
	}
	wg.Wait()
	kill() // in case the movers finished first (they should not: most*movers > killAfter)
	<-srv.done
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("before the kill: %v", err)
	}
	if acked.Load() < killAfter {
		t.Fatalf("only %d moves were acknowledged", acked.Load())
	}

	again := startServer(t, bin, db)
	c = newBenchClient(again.addr, 4)
	for id, version := range last {
		v, err := c.state(ctx, tokens[id])
		if err != nil {
			t.Fatalf("%s after restart: %v", id, err)
		}
		if v.Version < version {
			t.Errorf("%s: version %d after restart, but %d was acknowledged", id, v.Version, version)
		}
		if ok, err := c.audited(ctx, id); err != nil || !ok {
			t.Errorf("%s: audit after restart: ok=%v, %v", id, ok, err)
		}
	}
	t.Logf("%d moves acknowledged in %d matches before the kill", acked.Load(), len(last))
}

// moveUntilKilled plays matches of its own with the first legal move, up to most moves,
// reporting each acknowledged move; it stops quietly at the first failure once the server is
// killed, and returns any failure before.
func moveUntilKilled(ctx context.Context, c *benchClient, most int, killed *atomic.Bool, ack func(benchMatch, int)) error {
	fail := func(err error) error {
		if killed.Load() {
			return nil
		}
		return err
	}
	m, err := c.create(ctx, "random", 1000)
	if err != nil {
		return fail(err)
	}
	for range most {
		v, err := c.state(ctx, m)
		if err != nil {
			return fail(err)
		}
		if v.Status != "in_progress" {
			if m, err = c.create(ctx, "random", 1000); err != nil {
				return fail(err)
			}
			continue
		}
		after, err := c.move(ctx, m, v.LegalMoves[0], "")
		if err != nil {
			return fail(fmt.Errorf("%s: move at %d: %w", m.ID, v.Version, err))
		}
		ack(m, after.Version)
	}
	return nil
}
