package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// TestPprofIsOffByDefaultAndOnItsOwnListener: without --pprof-addr no profiles are served;
// with it, they are served on that address.
func TestPprofIsOffByDefaultAndOnItsOwnListener(t *testing.T) {
	if c, err := parseServe(nil, envOf(nil), io.Discard); err != nil || c.pprofAddr != "" {
		t.Fatalf("default pprof address %q (%v), want none", c.pprofAddr, err)
	}
	if c, err := parseServe([]string{"--pprof-addr", "127.0.0.1:0"}, envOf(nil), io.Discard); err != nil || c.pprofAddr != "127.0.0.1:0" {
		t.Fatalf("pprof address %q (%v)", c.pprofAddr, err)
	}
	var logged bytes.Buffer
	stop, err := servePprof("127.0.0.1:0", slog.New(slog.NewJSONHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var line struct {
		Addr string `json:"pprof_addr"`
	}
	if err := json.Unmarshal(logged.Bytes(), &line); err != nil || line.Addr == "" {
		t.Fatalf("log line %q: %v", logged.String(), err)
	}
	res, err := http.Get("http://" + line.Addr + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine") {
		t.Fatalf("/debug/pprof/: %d %.200s", res.StatusCode, body)
	}
}
