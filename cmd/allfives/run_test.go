package main

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
)

// running is a serve started by a test.
type running struct {
	base string
	out  *apitest.SyncBuffer
	stop func() error
}

// startServe runs serve on a free local port with a database in a temporary directory, and
// returns once it listens. Its limits are off, as for any test that is not about them; extra
// may turn them on again (--limits on), the last flag winning.
func startServe(t *testing.T, extra ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &apitest.SyncBuffer{}
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "allfives.db"), "--limits", "off"}, extra...)
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, func(string) string { return "" }, out) }()
	stop := sync.OnceValue(func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Errorf("serve did not stop within 30 s; log:\n%s", out)
			return nil
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if line := out.Logged("listening"); line != nil {
			r := &running{base: "http://" + line["addr"].(string), out: out, stop: stop}
			t.Cleanup(func() { _ = stop() })
			return r
		}
		select {
		case err := <-done:
			t.Fatalf("serve ended before listening: %v\n%s", err, out)
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	t.Fatalf("serve did not listen within 30 s; log:\n%s", out)
	return nil
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	a := apitest.Call(t, http.MethodGet, url, "", nil)
	return a.Status, string(a.Body)
}

// TestServeSwaggerUI: serve answers Swagger UI, its document, the OpenAPI 3 document and the
// probes, then shuts down cleanly when its context ends.
func TestServeSwaggerUI(t *testing.T) {
	srv := startServe(t)
	for path, want := range map[string]string{
		"/swagger/index.html": "swagger-ui",
		"/swagger/doc.json":   `"swagger": "2.0"`,
		"/openapi.yaml":       "openapi: 3.0",
		"/healthz":            `"ok"`,
		"/readyz":             `"ready"`,
	} {
		status, body := get(t, srv.base+path)
		if status != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("GET %s: %d, want 200 containing %q; got %.200s", path, status, want, body)
		}
	}
	if err := srv.stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if srv.out.Logged("stopped") == nil {
		t.Fatalf("no clean stop in the log:\n%s", srv.out)
	}
}

// TestMigrate: migrate applies the schema to a new file named by ALLFIVES_DB, and a second
// run, named by --db, has nothing to apply.
func TestMigrate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	env := func(k string) string { return map[string]string{"ALLFIVES_DB": db}[k] }
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate"}, env, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "applied") {
		t.Fatalf("first migrate: %q", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"migrate", "--db", db}, env, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "nothing to apply") {
		t.Fatalf("second migrate: %q", out.String())
	}
}
