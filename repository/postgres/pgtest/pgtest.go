// Package pgtest gives tests a fresh, empty PostgreSQL database each, on the server named by
// $ALLFIVES_TEST_POSTGRES (default postgres://postgres@127.0.0.1:5432/postgres, the server the
// project's machines start; see docs/operations.md, "Tests"). Without a server the tests skip with one
// line saying how to run them, except in CI (CI=true), where they fail.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultServer is the server used when $ALLFIVES_TEST_POSTGRES is empty.
const DefaultServer = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// adminURL is the server's maintenance database, where databases are created and dropped.
func adminURL() string {
	if u := os.Getenv("ALLFIVES_TEST_POSTGRES"); u != "" {
		return u
	}
	return DefaultServer
}

var (
	probeOnce sync.Once
	probeErr  error
)

// available connects to the server once per test binary.
func available() error {
	probeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, adminURL())
		if err != nil {
			probeErr = err
			return
		}
		probeErr = conn.Close(ctx)
	})
	return probeErr
}

// Require skips tb (fails it when CI=true) unless the test server answers.
func Require(tb testing.TB) {
	tb.Helper()
	if err := available(); err != nil {
		// One line: pgx's connection errors span several.
		why := strings.Join(strings.Fields(err.Error()), " ")
		msg := "PostgreSQL not reachable (" + why + "); to run these tests start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set ALLFIVES_TEST_POSTGRES"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
}

// URL creates an empty database for tb, dropped when tb ends, and returns its URL.
func URL(tb testing.TB) string {
	tb.Helper()
	Require(tb)
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "allfives_test_" + hex.EncodeToString(b[:])
	admin(tb, "CREATE DATABASE "+name)
	tb.Cleanup(func() { admin(tb, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	u, err := url.Parse(adminURL())
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// admin runs one statement on the maintenance database.
func admin(tb testing.TB, stmt string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, adminURL())
	if err != nil {
		tb.Fatalf("connect to the test server: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		tb.Fatalf("%s: %v", stmt, err)
	}
}
