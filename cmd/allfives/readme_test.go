package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// walkthrough returns the shell block of README.md between the walkthrough markers.
func walkthrough(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- walkthrough:start -->")
	block, _, ok2 := strings.Cut(rest, "<!-- walkthrough:end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no walkthrough markers")
	}
	block = strings.TrimSpace(block)
	block, ok = strings.CutPrefix(block, "```sh\n")
	block, ok2 = strings.CutSuffix(block, "```")
	if !ok || !ok2 {
		t.Fatal("the walkthrough is not one ```sh block")
	}
	return block
}

// baseLine is how every curl block of the docs names its server: BASE from the environment,
// or the default address.
const baseLine = "BASE=${BASE:-http://localhost:8080}"

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
	srv := startServe(t, "--limits", "on") // what a reader runs: a server as it starts by default
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Env = append(os.Environ(), "BASE="+srv.base)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s failed: %v\n%s", what, err, out)
	}
	return string(out)
}

// TestReadmeWalkthrough runs the README's curl walkthrough, as written, against a freshly
// started server named by BASE.
func TestReadmeWalkthrough(t *testing.T) {
	out := runWithBase(t, "the README walkthrough", walkthrough(t))
	for _, want := range []string{
		`"you":{"seat":0,"tiles":["2-3","4-4","4-5","2-4","2-5","0-0","5-5"]}`,
		`"legal_moves":[{"action":"play","tile":"5-5","end":"left","points":10}]`,
		`"type":"tile.played"`, `"points":10`, `"scores":[10,0]`,
		`"code":"NOT_YOUR_TURN"`,
		`"hands":[null,null]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the walkthrough's output lacks %s:\n%s", want, out)
		}
	}
}
