package connect

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/engine"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
)

// The test binary plays the programs these tests run as real processes: `<test binary>
// allfives engine ...` is the reference engine, `<test binary> allfives connect ...` the
// connector, exactly as the allfives binary runs them.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "allfives" {
		var err error
		switch os.Args[2] {
		case "engine":
			err = engine.Command(context.Background(), os.Args[3:], os.Stdin, os.Stdout, os.Stderr)
		case "connect":
			err = Command(context.Background(), os.Args[3:], os.Getenv, os.Stderr)
		case "mute": // an engine that never says ready
			io.Copy(io.Discard, os.Stdin)
		case "liar": // an engine whose every move is illegal
			liar()
		case "flaky": // the greedy engine, which exits at its first go if the file os.Args[3] is not there
			err = flaky(os.Args[3])
		case "timed": // the greedy engine noting its timings (overhead_test.go)
			err = timed()
		case "slow": // the greedy engine, a little slow, so a match lasts long enough to interrupt
			b := &engine.Bot{Name: "slow-greedy", Strategy: slow{bot.NewGreedy()}}
			err = b.Run(context.Background(), os.Stdin, os.Stdout)
		default:
			err = fmt.Errorf("no command %q", os.Args[2])
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "allfives:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func ctxBackground() context.Context { return context.Background() }

// flaky is the greedy engine, once it has died once: the first time it is asked to move it
// leaves the file mark behind and exits.
func flaky(mark string) error {
	if _, err := os.Stat(mark); err != nil {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		sc.Scan()
		fmt.Println("id name flaky\nready")
		for sc.Scan() {
			if w, _ := engine.Split(sc.Text()); w == engine.WordGo {
				os.WriteFile(mark, nil, 0o600)
				os.Exit(2)
			}
		}
		return nil
	}
	b := &engine.Bot{Name: "flaky", Strategy: bot.NewGreedy()}
	return b.Run(context.Background(), os.Stdin, os.Stdout)
}

// slow is a strategy that takes its time.
type slow struct{ domain.Strategy }

func (s slow) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	time.Sleep(30 * time.Millisecond)
	return s.Strategy.Choose(ctx, v)
}

// liar speaks the protocol and answers every go with a tile no one holds.
func liar() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	sc.Scan()
	fmt.Println("id name liar\nready")
	for sc.Scan() {
		switch word, _ := engine.Split(sc.Text()); word {
		case engine.WordGo:
			fmt.Println(`move {"action":"play","tile":"6-6","end":"sideways"}`)
		case engine.WordQuit:
			return
		}
	}
}

// self is the command line that runs this test binary as `allfives`.
func self(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe + " allfives"
}

// refEngine is the --engine of a reference engine playing strategy.
func refEngine(t testing.TB, strategy string) string {
	return self(t) + " engine --bot " + strategy
}

// startServer is the server serve runs, every feature on, limits off, over SQLite in the
// test's directory, on a loopback port; tweak changes its config first.
func startServer(t testing.TB, tweak func(*server.Config)) *httptest.Server {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "allfives.db")
	cfg.Sync = "normal"
	cfg.Limits = server.Limits{}
	cfg.BotSeed = 7
	cfg.Review = apitest.SmallReview
	cfg.SweepEvery, cfg.RatingsEvery, cfg.TournamentSweep = 50*time.Millisecond, 50*time.Millisecond, 100*time.Millisecond
	cfg.Seeks.Every = 50 * time.Millisecond
	if tweak != nil {
		tweak(&cfg)
	}
	s, err := server.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		s.Close()
	})
	return srv
}

// call sends one request to the API with key (if any) and decodes the answer into out; it
// fails the test unless the status is want.
func call(t testing.TB, base, key, method, path string, body any, want int, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+"/api/v1"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

// player is a player created on the server.
type player struct {
	ID, Name, Key string
}

func newPlayer(t testing.TB, base, name string, program bool) player {
	t.Helper()
	var out struct {
		Player struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"player"`
		Key string `json:"key"`
	}
	body := map[string]any{"name": name}
	if program {
		body["program"] = true
	}
	call(t, base, "", http.MethodPost, "/players", body, http.StatusCreated, &out)
	return player{ID: out.Player.ID, Name: out.Player.Name, Key: out.Key}
}

// connector is one connect.Run in process: its log and, once it returned, its error.
type connector struct {
	log  *apitest.SyncBuffer
	done chan error
	stop context.CancelFunc
}

func runConnector(t testing.TB, cfg Config) *connector {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := &connector{log: &apitest.SyncBuffer{}, done: make(chan error, 1), stop: cancel}
	cfg.Log = slog.New(slog.NewTextHandler(c.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	go func() { c.done <- Run(ctx, cfg) }()
	t.Cleanup(func() {
		cancel()
		<-c.done
		if t.Failed() {
			t.Logf("connector log:\n%s", c.log.String())
		}
	})
	return c
}

// result waits up to limit for the connector to return, and answers its error.
func (c *connector) result(t testing.TB, limit time.Duration) error {
	t.Helper()
	select {
	case err := <-c.done:
		c.done <- err // the cleanup reads it again
		return err
	case <-time.After(limit):
		t.Fatalf("the connector did not return within %s; its log:\n%s", limit, c.log.String())
		return nil
	}
}

// waitFor polls cond until it holds, failing the test after limit.
func waitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// matchesOf lists a player's matches of status ("" for all).
func matchesOf(t testing.TB, base string, p player, status string) []map[string]any {
	t.Helper()
	var out struct {
		Matches []map[string]any `json:"matches"`
	}
	q := ""
	if status != "" {
		q = "?status=" + status
	}
	call(t, base, p.Key, http.MethodGet, "/players/"+p.ID+"/matches"+q, nil, http.StatusOK, &out)
	return out.Matches
}

// vsBot creates a match of p's seat 0 against a greedy bot, with p's key, and answers its id.
func vsBot(t testing.TB, base string, p player, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"players": []map[string]any{
		{"kind": "human", "player": "me"}, {"kind": "bot", "bot": "greedy"},
	}}
	for k, v := range extra {
		body[k] = v
	}
	var out struct {
		Match struct {
			ID string `json:"id"`
		} `json:"match"`
	}
	call(t, base, p.Key, http.MethodPost, "/matches", body, http.StatusCreated, &out)
	return out.Match.ID
}

// matchState is what the tests read of a match: its status and version.
func matchState(t testing.TB, base, id string) (string, int) {
	t.Helper()
	var v struct {
		Status  string `json:"status"`
		Version int    `json:"version"`
	}
	call(t, base, "", http.MethodGet, "/matches/"+id, nil, http.StatusOK, &v)
	return v.Status, v.Version
}

// auditOK checks a match's audit passes: its log is one unbroken chain of legal moves.
func auditOK(t testing.TB, base, id string) {
	t.Helper()
	var a struct {
		OK bool `json:"ok"`
	}
	call(t, base, "", http.MethodGet, "/matches/"+id+"/audit", nil, http.StatusOK, &a)
	if !a.OK {
		t.Fatalf("match %s fails its audit", id)
	}
}
