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

// TestReadmeWalkthrough runs the README's curl walkthrough, as written except for the
// server's address, against a freshly started server, with bash's -e and pipefail so that
// any failing step fails the test.
func TestReadmeWalkthrough(t *testing.T) {
	script := walkthrough(t)
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is needed to check the README walkthrough", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	if !strings.Contains(script, "http://localhost:8080/") {
		t.Fatal("the walkthrough no longer talks to http://localhost:8080")
	}
	srv := startServe(t)
	script = strings.ReplaceAll(script, "http://localhost:8080/", srv.base+"/")
	out, err := exec.Command("bash", "-euo", "pipefail", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("the walkthrough failed: %v\n%s", err, out)
	}
	for _, want := range []string{
		`"you":{"seat":0,"tiles":["2-3","4-4","4-5","2-4","2-5","0-0","5-5"]}`,
		`"legal_moves":[{"action":"play","tile":"5-5","end":"left","points":10}]`,
		`"type":"tile.played"`, `"points":10`, `"scores":[10,0]`,
		`"code":"NOT_YOUR_TURN"`,
		`"hands":[null,null]`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the walkthrough's output lacks %s:\n%s", want, out)
		}
	}
}
