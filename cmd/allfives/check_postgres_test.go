package main

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestCheckPostgres: check takes a PostgreSQL URL too: with no file to check it runs the audit
// of every match alone, passes a sound database with a summary that never shows the password,
// and fails, naming the match and the check, once one match's event and another's read model
// are changed behind the store's back.
func TestCheckPostgres(t *testing.T) {
	ctx := context.Background()
	url := withPassword(pgtest.URL(t))
	store, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := botMatches(t, store, 3)
	store.Close()
	if out := checkPasses(t, url); strings.Contains(out, "integrity_check") || strings.Contains(out, "hunter2") {
		t.Fatalf("summary:\n%s", out)
	}

	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range append([]string{"DROP TRIGGER events_no_update_delete ON events"}, tampering(ids)...) {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	conn.Close(ctx)
	if out := checkFails(t, url, ids); strings.Contains(out, "hunter2") {
		t.Fatalf("the password shows:\n%s", out)
	}
}
