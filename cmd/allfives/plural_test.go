package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCount: one of a thing is singular, any other number plural.
func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 matches", 1: "1 match", 2: "2 matches", 11: "11 matches"} {
		if got := count(n, "match", "matches"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestOutputSaysOneInTheSingular: check over a database of one match says "1 match audited",
// and simulate with one worker says "1 worker".
func TestOutputSaysOneInTheSingular(t *testing.T) {
	ctx := context.Background()
	store, path := sqliteFile(t, "normal")
	botMatches(t, store, 1)
	store.Close()
	var out bytes.Buffer
	if err := run(ctx, []string{"check", "--db", path}, envOf(nil), &out); err != nil {
		t.Fatalf("check: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), ": 1 match audited, 1 ok, 0 failed") {
		t.Errorf("check of one match:\n%s", out.String())
	}
	sim, err := simulateCLI(t, "--matches", "2", "--bots", "greedy,random", "--workers", "1", "--target", "50")
	if err != nil || !strings.Contains(sim, "seed 1, 1 worker\n") {
		t.Errorf("simulate with one worker: %v\n%s", err, sim)
	}
}

// TestStartUpLineOnSQLite: on SQLite the start-up line names the durability in force
// (TestServePostgres checks that PostgreSQL's does not).
func TestStartUpLineOnSQLite(t *testing.T) {
	srv := startServe(t, "--sync", "normal")
	if line := srv.out.Logged("listening"); line == nil || line["sync"] != "normal" || line["bot_workers"] == nil {
		t.Errorf("the start-up line on SQLite: %v", line)
	}
}

// TestServeHelpGivesOneDefaultPerFlag: serve -h prints each flag's default once, the one
// flag computes (--bot-workers's depends on the machine) included.
func TestServeHelpGivesOneDefaultPerFlag(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"serve", "-h"}, envOf(nil), &out); err != nil {
		t.Fatal(err)
	}
	for _, entry := range strings.Split(out.String(), "\n  -")[1:] {
		if n := strings.Count(entry, "default"); n > 1 {
			t.Errorf("serve -h gives %d defaults for -%s", n, entry)
		}
	}
	if !strings.Contains(out.String(), "-bot-workers") {
		t.Fatalf("serve -h has no -bot-workers:\n%s", out.String())
	}
}
