package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestSimulateRated: simulate --rated plays rated matches of distinct bots and prints each
// bot's rating as it settles, then a table with the model's intervals; the same seed prints
// the same ratings.
func TestSimulateRated(t *testing.T) {
	args := []string{"simulate", "--rated", "--matches", "3", "--formats", "2p", "--workers", "2", "--points", "3"}
	var a, b bytes.Buffer
	for _, out := range []*bytes.Buffer{&a, &b} {
		if err := run(context.Background(), args, func(string) string { return "" }, out); err != nil {
			t.Fatal(err)
		}
	}
	text := a.String()
	for _, want := range []string{"2p: 3 matches", "bot-random", "bot-expert", "bot-level-1", "bot-level-8", "95% interval of mu", "mean mu, 2nd half"} {
		if !strings.Contains(text, want) {
			t.Fatalf("output lacks %q:\n%s", want, text)
		}
	}
	_, ra, _ := strings.Cut(text, "are rated:")
	_, rb, _ := strings.Cut(b.String(), "are rated:")
	if ra != rb {
		t.Fatalf("one seed, two outputs:\n%s\n%s", ra, rb)
	}
	for _, bad := range [][]string{{"simulate", "--rated", "--formats", "5p"}, {"simulate", "--rated", "--matches", "0"}} {
		if err := run(context.Background(), bad, func(string) string { return "" }, &bytes.Buffer{}); err == nil {
			t.Errorf("%v ran", bad)
		}
	}
}
