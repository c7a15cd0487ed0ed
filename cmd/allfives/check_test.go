package main

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/glebarez/go-sqlite" // the "sqlite" driver, to change a file behind its store's back

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/sqlite"
)

// sqliteFile opens a store on a new SQLite file of t's directory, for a command to read once
// the test has closed the store; it returns the file's path too.
func sqliteFile(t *testing.T, sync string) (*sqlite.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "allfives.db")
	store, err := sqlite.Open(context.Background(), path, sqlite.Options{Sync: sync})
	if err != nil {
		t.Fatal(err)
	}
	return store, path
}

// botMatches has the referee create n matches of two bots to 50 on store, greedy against
// random, greedy and random in turn, and returns their ids.
func botMatches(t *testing.T, store referee.EventStore, n int) []string {
	t.Helper()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	var ids []string
	for i := range n {
		c, err := svc.Create(context.Background(), referee.CreateRequest{Target: 50, Players: []domain.PlayerInfo{
			{Name: "a", Kind: domain.Bot, Bot: "greedy"}, {Name: "b", Kind: domain.Bot, Bot: []string{"random", "greedy"}[i%2]},
		}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.Match.ID)
	}
	return ids
}

// tamper runs statements on a SQLite file behind its store's back.
func tamper(t *testing.T, path string, statements ...string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range statements {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// checkPasses runs check on the database db names, which holds three sound matches, and
// returns its output, failing unless check passes them all.
func checkPasses(t *testing.T, db string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"check", "--db", db}, envOf(nil), &out); err != nil {
		t.Fatalf("a sound database: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "3 matches audited, 3 ok, 0 failed") {
		t.Fatalf("summary:\n%s", out.String())
	}
	return out.String()
}

// checkFails runs check on the database db names, whose matches ids[0] and ids[2] had an
// event and a read model changed behind the store's back, and returns its output and error,
// failing unless check names both matches and the checks they fail.
func checkFails(t *testing.T, db string, ids []string) string {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), []string{"check", "--db", db}, envOf(nil), &out)
	if err == nil {
		t.Fatalf("a tampered database passes:\n%s", out.String())
	}
	for _, want := range []string{ids[0] + ": FAILED hash_chain: seq 3", ids[2] + ": FAILED read_model", "3 matches audited, 1 ok, 2 failed"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("no %q in:\n%s", want, out.String())
		}
	}
	return out.String() + err.Error()
}

// tampering changes seq 3 of the first match's events and the third match's read model.
func tampering(ids []string) []string {
	return []string{
		"UPDATE events SET data = data || ' ' WHERE match_id = '" + ids[0] + "' AND seq = 3",
		"UPDATE matches SET scores = 'nope' WHERE id = '" + ids[2] + "'",
	}
}

// TestCheckAuditsEveryMatch: check passes a sound database with a summary, and fails, naming
// the match and the check, once one match's event and another's read model are changed in the
// file.
func TestCheckAuditsEveryMatch(t *testing.T) {
	store, path := sqliteFile(t, "normal")
	ids := botMatches(t, store, 3)
	store.Close()
	if out := checkPasses(t, path); !strings.Contains(out, "integrity_check: ok") {
		t.Fatalf("summary:\n%s", out)
	}
	tamper(t, path, append([]string{"DROP TRIGGER events_no_update"}, tampering(ids)...)...)
	checkFails(t, path, ids)
}
