package main

import (
	"os"
	"strings"
	"testing"
)

// docsBlock returns the shell block of docs/api.md between the given markers.
func docsBlock(t *testing.T, name string) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- "+name+":start -->")
	block, _, ok2 := strings.Cut(rest, "<!-- "+name+":end -->")
	if !ok || !ok2 {
		t.Fatalf("docs/api.md has no %s markers", name)
	}
	block, ok = strings.CutPrefix(strings.TrimSpace(block), "```sh\n")
	block, ok2 = strings.CutSuffix(block, "```")
	if !ok || !ok2 {
		t.Fatalf("the %s block is not one ```sh block", name)
	}
	return block
}

// TestPlayingWithOthersExamples runs the curl examples of docs/api.md, "Playing with others",
// as written, against a freshly started server named by BASE.
func TestPlayingWithOthersExamples(t *testing.T) {
	text := runWithBase(t, "the docs' examples", docsBlock(t, "others"))
	for _, want := range []string{
		`"status":"waiting"`, `"open_seats":[1,2]`, `"invites":[{"seat":1,"invite":"`,
		`{"seat":1,"token":"`, `"code":"SEAT_TAKEN"`, `"status":"in_progress"`, `"turn":`,
		`"deadline":"`, `"code":"MATCH_STARTED"`, `{"matches":[],"next_cursor":null}`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the examples' output lacks %s:\n%s", want, text)
		}
	}
}
