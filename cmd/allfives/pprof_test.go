package main

import (
	"io"
	"testing"
)

// TestPprofIsOffByDefault: without --pprof-addr serve asks for no profiles' listener; with it,
// for one on that address (the listener itself: internal/server's TestStartServesProfiles).
func TestPprofIsOffByDefault(t *testing.T) {
	if c, err := parseServe(nil, envOf(nil), io.Discard); err != nil || c.PprofAddr != "" {
		t.Fatalf("default pprof address %q (%v), want none", c.PprofAddr, err)
	}
	if c, err := parseServe([]string{"--pprof-addr", "127.0.0.1:0"}, envOf(nil), io.Discard); err != nil || c.PprofAddr != "127.0.0.1:0" {
		t.Fatalf("pprof address %q (%v)", c.PprofAddr, err)
	}
}
