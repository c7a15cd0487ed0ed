package main

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/sqlite"
)

// TestCheckAuditsEveryMatch: check passes a sound database with a summary, and fails, naming
// the match and the check, once one match's event and another's read model are changed in the
// file.
func TestCheckAuditsEveryMatch(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "allfives.db")
	store, err := sqlite.Open(ctx, path, sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(1)})
	var ids []string
	for i := range 3 {
		c, err := svc.Create(ctx, referee.CreateRequest{Target: 50, Players: []domain.PlayerInfo{
			{Name: "a", Kind: domain.Bot, Bot: "greedy"}, {Name: "b", Kind: domain.Bot, Bot: []string{"random", "greedy", "random"}[i]},
		}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.Match.ID)
	}
	store.Close()
	var out bytes.Buffer
	if err := run(ctx, []string{"check", "--db", path}, envOf(nil), &out); err != nil {
		t.Fatalf("a sound database: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "integrity_check: ok") || !strings.Contains(out.String(), "3 matches audited, 3 ok, 0 failed") {
		t.Fatalf("summary:\n%s", out.String())
	}

	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DROP TRIGGER events_no_update",
		"UPDATE events SET data = data || ' ' WHERE match_id = '" + ids[0] + "' AND seq = 3",
		"UPDATE matches SET scores = 'nope' WHERE id = '" + ids[2] + "'",
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	out.Reset()
	err = run(ctx, []string{"check", "--db", path}, envOf(nil), &out)
	if err == nil {
		t.Fatalf("a tampered database passes:\n%s", out.String())
	}
	for _, want := range []string{ids[0] + ": FAILED hash_chain: seq 3", ids[2] + ": FAILED read_model", "3 matches audited, 1 ok, 2 failed"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("no %q in:\n%s", want, out.String())
		}
	}
}
