package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/bot"
)

// engineEnv makes this test binary an engine: "bot:<strategy>" the reference engine, "silent"
// one that never says ready, "unsupported" one that refuses the greeting, "exit" one that ends.
const engineEnv = "ALLFIVES_TEST_ENGINE"

func TestMain(m *testing.M) {
	switch role := os.Getenv(engineEnv); {
	case strings.HasPrefix(role, "bot:"):
		err := Command(context.Background(), []string{"--bot", strings.TrimPrefix(role, "bot:"), "--seed", "3"}, os.Stdin, os.Stdout, os.Stderr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case role == "silent":
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case role == "unsupported":
		fmt.Println("id name old")
		fmt.Println("unsupported")
		os.Exit(0)
	case role == "exit":
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// startAs runs this test binary as an engine in role.
func startAs(t *testing.T, role string, ready time.Duration) (*Process, error) {
	t.Helper()
	t.Setenv(engineEnv, role)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Start(context.Background(), exe, ready, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// TestReferenceEngineChoosesAsTheBotInProcess: through the protocol, fed its seat's events
// only, each bot chooses at every turn the move the same bot, seeded alike, chooses from the
// referee's view.
func TestReferenceEngineChoosesAsTheBotInProcess(t *testing.T) {
	names := []string{bot.NameRandom, bot.NameGreedy, bot.LevelName(3), bot.NameExpert}
	for _, players := range []int{2, 4} {
		t.Run(fmt.Sprintf("%dp", players), func(t *testing.T) {
			inProcess := bot.Strategies(3)
			tb := newTable(t, players, false, 5)
			engines := make([]*Process, players)
			for s := range engines {
				p, err := startAs(t, "bot:"+names[s], ReadyTimeout)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { p.Quit(5 * time.Second) })
				if p.Name != "allfives-"+names[s] {
					t.Fatalf("engine named %q", p.Name)
				}
				p.Send(fmt.Sprintf("match m seat %d", s))
				engines[s] = p
			}
			fed := make([]int, players)
			for turn := 0; !tb.m.Finished(); turn++ {
				seat := tb.m.Turn()
				for _, e := range seen(t, seat, tb.events[fed[seat]:]) {
					if err := engines[seat].Send(EventLine(e)); err != nil {
						t.Fatal(err)
					}
				}
				fed[seat] = len(tb.events)
				view := tb.m.SeatView(seat, tb.hands)
				want, err := inProcess[names[seat]].Choose(context.Background(), view)
				if err != nil {
					t.Fatal(err)
				}
				wire := make([]LegalMove, len(view.LegalMoves))
				for i, l := range view.LegalMoves {
					wire[i] = FromDomain(l)
				}
				line, err := GoLine(-1, wire)
				if err != nil {
					t.Fatal(err)
				}
				rest, err := engines[seat].Move(context.Background(), line)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ParseMove(rest)
				if err != nil {
					t.Fatal(err)
				}
				g, err := got.Domain()
				if err != nil {
					t.Fatal(err)
				}
				if g.Move() != want {
					t.Fatalf("turn %d, seat %d (%s): the engine played %s, the bot in process %+v", turn, seat, names[seat], rest, want)
				}
				tb.act(t, want)
			}
		})
	}
}

// TestAnEngineThatIsNotReadyIsRefused: silence past the timeout, unsupported, or an exit
// before ready all refuse the engine with ErrNotReady.
func TestAnEngineThatIsNotReadyIsRefused(t *testing.T) {
	for _, role := range []string{"silent", "unsupported", "exit"} {
		t.Run(role, func(t *testing.T) {
			start := time.Now()
			p, err := startAs(t, role, 300*time.Millisecond)
			if !errors.Is(err, ErrNotReady) {
				if p != nil {
					p.Kill()
				}
				t.Fatalf("started: %v, want ErrNotReady", err)
			}
			if role != "silent" && time.Since(start) > 5*time.Second {
				t.Fatalf("%s took %s to be refused; it should not wait for the timeout", role, time.Since(start))
			}
		})
	}
}

// TestBotAnswersUnsupportedToAnotherProtocol: the reference engine refuses a greeting it
// does not speak.
func TestBotAnswersUnsupportedToAnotherProtocol(t *testing.T) {
	var out strings.Builder
	b := &Bot{Name: "x", Strategy: bot.NewGreedy()}
	err := b.Run(context.Background(), strings.NewReader("allfives-engine 2\n"), &out)
	if err == nil || out.String() != "unsupported\n" {
		t.Fatalf("answered %q, %v", out.String(), err)
	}
}
