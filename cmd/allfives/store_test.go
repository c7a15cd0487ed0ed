package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// withPassword puts a password into a test database's URL: the test server trusts every
// connection and ignores it, so it shows only whether the password leaks.
func withPassword(url string) string {
	return strings.Replace(url, "postgres@", "postgres:hunter2@", 1)
}

// TestMigratePostgres: migrate applies the PostgreSQL schema to a new database named by a
// postgresql:// URL in ALLFIVES_DB, a second run has nothing to apply, and neither says the
// password.
func TestMigratePostgres(t *testing.T) {
	url := withPassword(pgtest.URL(t))
	url = "postgresql://" + strings.TrimPrefix(url, "postgres://")
	env := func(k string) string { return map[string]string{"ALLFIVES_DB": url}[k] }
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate"}, env, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "applied 00001_init.sql") {
		t.Fatalf("first migrate: %q", out.String())
	}
	if err := run(context.Background(), []string{"migrate", "--db", url}, env, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "nothing to apply") || strings.Contains(out.String(), "hunter2") {
		t.Fatalf("second migrate: %q", out.String())
	}
}

// TestServePostgres: serve on a postgres:// URL migrates, answers readiness by pinging the
// database, creates a match, exports the pool's figures as metrics, never logs the password,
// and stops cleanly, its listener included; then replay reads the match by the same URL.
func TestServePostgres(t *testing.T) {
	url := withPassword(pgtest.URL(t))
	srv := startServe(t, "--db", url)
	// Ready once its LISTEN connection listens too, which may follow the "listening" line.
	status, body := get(t, srv.base+"/readyz")
	for start := time.Now(); status != http.StatusOK && time.Since(start) < time.Minute; status, body = get(t, srv.base+"/readyz") {
		time.Sleep(20 * time.Millisecond)
	}
	if status != http.StatusOK || !strings.Contains(body, "ready") {
		t.Fatalf("readyz: %d %s", status, body)
	}
	// SQLite's --sync has no say over PostgreSQL: the start-up line does not name it.
	if line := srv.out.Logged("listening"); line == nil || line["sync"] != nil || line["db"] == nil {
		t.Errorf("the start-up line on PostgreSQL: %v", line)
	}
	res, err := http.Post(srv.base+"/api/v1/matches", "application/json",
		strings.NewReader(`{"players":[{"name":"ann","kind":"human"},{"name":"bot","kind":"bot","bot":"greedy"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var created api.CreateMatchResponse
	err = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated || err != nil {
		t.Fatalf("create: %d %v", res.StatusCode, err)
	}
	_, metrics := get(t, srv.base+"/metrics")
	for _, want := range []string{`go_sql_max_open_connections{db_name="allfives"} 16`, `go_sql_open_connections{db_name="allfives"}`, `go_sql_wait_count_total{db_name="allfives"}`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if err := srv.stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if srv.out.Logged("stopped") == nil || strings.Contains(srv.out.String(), "hunter2") {
		t.Fatalf("log:\n%s", srv.out)
	}
	// replay reads the same database by its URL.
	var out bytes.Buffer
	if err := run(context.Background(), []string{"replay", created.Match.ID, "--db", url, "--token", created.Tokens[0].Token}, envOf(nil), &out); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !strings.Contains(out.String(), created.Match.ID) || !strings.Contains(out.String(), "(7 tiles)") {
		t.Fatalf("replay printed:\n%s", out.String())
	}
}
