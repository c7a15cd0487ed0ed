package engine

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/bot"
)

// TestPythonExampleEngine: docs/examples/greedy_engine.py, the whole engine docs/engine.md
// shows, plays a whole match against the greedy bot through the protocol, every move legal.
func TestPythonExampleEngine(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is not installed; CI installs it (.ci/run)")
		}
		t.Skip("python3 is not installed")
	}
	script, err := filepath.Abs("../../../../docs/examples/greedy_engine.py")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(context.Background(), python+" "+script, time.Minute, // a loaded machine starts python slowly: this test is not about the timeout
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Quit(5 * time.Second)
	if p.Name != "greedy.py" {
		t.Fatalf("the example named itself %q", p.Name)
	}
	p.Send("match m seat 0")
	tb := newTable(t, 2, false, 9)
	greedy, fed, moves := bot.NewGreedy(), 0, 0
	for !tb.m.Finished() {
		seat := tb.m.Turn()
		view := tb.m.SeatView(seat, tb.hands)
		if seat == 1 {
			mv, err := greedy.Choose(context.Background(), view)
			if err != nil {
				t.Fatal(err)
			}
			tb.act(t, mv)
			continue
		}
		for _, e := range seen(t, 0, tb.events[fed:]) {
			p.Send(EventLine(e))
		}
		fed = len(tb.events)
		wire := make([]LegalMove, len(view.LegalMoves))
		for i, l := range view.LegalMoves {
			wire[i] = FromDomain(l)
		}
		line, err := GoLine(int64(30000), wire)
		if err != nil {
			t.Fatal(err)
		}
		rest, err := p.Move(context.Background(), line)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseMove(rest)
		if err != nil {
			t.Fatal(err)
		}
		d, err := got.Domain()
		if err != nil {
			t.Fatalf("move %s: %v", rest, err)
		}
		tb.act(t, d.Move())
		moves++
	}
	if moves < 5 {
		t.Fatalf("the example made %d moves in a whole match", moves)
	}
}
