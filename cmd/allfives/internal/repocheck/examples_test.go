package repocheck

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
)

// shellBlock returns the shell block of a page of the repository (by its path from the top)
// between the markers <!-- name:start --> and <!-- name:end -->.
func shellBlock(t *testing.T, page, name string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readRepo(t, page), "<!-- "+name+":start -->")
	block, _, ok2 := strings.Cut(rest, "<!-- "+name+":end -->")
	if !ok || !ok2 {
		t.Fatalf("%s has no %s markers", page, name)
	}
	block, ok = strings.CutPrefix(strings.TrimSpace(block), "```sh\n")
	block, ok2 = strings.CutSuffix(block, "```")
	if !ok || !ok2 {
		t.Fatalf("the %s block of %s is not one ```sh block", name, page)
	}
	return block
}

// baseLine is how every curl block of the docs names its server: BASE from the environment,
// or the default address.
const baseLine = "BASE=${BASE:-http://localhost:8080}"

// startServe runs the server as `allfives serve` runs it when no flag or variable is set
// (server.DefaultConfig: the limits on), on a free local port with a database in a temporary
// directory, and returns its address once it listens; the test's end stops it.
func startServe(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := &apitest.SyncBuffer{}
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.DB = "127.0.0.1:0", filepath.Join(t.TempDir(), "allfives.db")
	cfg.Logger = slog.New(slog.NewJSONHandler(log, nil))
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, cfg) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Errorf("the server did not stop within 30 s; log:\n%s", log)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if line := log.Logged("listening"); line != nil {
			return "http://" + line["addr"].(string)
		}
		select {
		case err := <-done:
			t.Fatalf("the server ended before listening: %v\n%s", err, log)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("the server did not listen within 30 s; log:\n%s", log)
	return ""
}

// runWithBase runs a docs shell block, as written, against a freshly started server named by
// BASE, with bash's -e and pipefail so that any failing step fails the test. The block must
// set BASE with baseLine and name no host of its own, so what a reader runs is what ran here.
func runWithBase(t *testing.T, what, script string) string {
	t.Helper()
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is needed to check %s", tool, what)
			}
			t.Skipf("%s is not installed; CI=true makes this a failure", tool)
		}
	}
	if !strings.HasPrefix(script, baseLine+"\n") || strings.Count(script, "localhost") != 1 {
		t.Fatalf("%s must begin with %s and name no other host:\n%s", what, baseLine, script)
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Env = append(os.Environ(), "BASE="+startServe(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s failed: %v\n%s", what, err, out)
	}
	return string(out)
}

// outputHas runs a docs shell block with runWithBase and fails on every wanted text its
// output lacks.
func outputHas(t *testing.T, what, script string, want ...string) {
	t.Helper()
	out := runWithBase(t, what, script)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s' output lacks %s:\n%s", what, w, out)
		}
	}
}

// TestReadmeWalkthrough runs the README's curl walkthrough, as written, against a freshly
// started server named by BASE.
func TestReadmeWalkthrough(t *testing.T) {
	outputHas(t, "the README walkthrough", shellBlock(t, "README.md", "walkthrough"),
		`"you":{"seat":0,"tiles":["2-3","4-4","4-5","2-4","2-5","0-0","5-5"]}`,
		`"legal_moves":[{"action":"play","tile":"5-5","end":"left","points":10}]`,
		`"type":"tile.played"`, `"points":10`, `"scores":[10,0]`,
		`"code":"NOT_YOUR_TURN"`,
		`"hands":[null,null]`,
	)
}

// TestPlayingWithOthersExamples runs the curl examples of docs/api-matches.md, "Playing with others",
// as written, against a freshly started server named by BASE.
func TestPlayingWithOthersExamples(t *testing.T) {
	outputHas(t, "the docs' examples", shellBlock(t, "docs/api-matches.md", "others"),
		`"status":"waiting"`, `"open_seats":[1,2]`, `"invites":[{"seat":1,"invite":"`,
		`{"seat":1,"token":"`, `"code":"SEAT_TAKEN"`, `"status":"in_progress"`, `"turn":`,
		`"deadline":"`, `"code":"MATCH_STARTED"`, `{"matches":[],"next_cursor":null}`,
	)
}
