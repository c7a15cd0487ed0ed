package main

import "testing"

// TestServerURL: bench and replay read a server as host:port or as a URL, and the two forms
// of one server give the same base URL; anything else is refused.
func TestServerURL(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:18110":             "http://127.0.0.1:18110",
		":8080":                       "http://localhost:8080",
		"localhost:8080":              "http://localhost:8080",
		"[::1]:8080":                  "http://[::1]:8080",
		"http://localhost:8080":       "http://localhost:8080",
		"http://localhost:8080/":      "http://localhost:8080",
		"https://play.example":        "https://play.example",
		"https://play.example/fives/": "https://play.example/fives",
		"http://[::1]:8080":           "http://[::1]:8080",
	} {
		got, err := serverURL(in)
		if err != nil || got != want {
			t.Errorf("serverURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", "localhost", "8080", "localhost:http", "localhost:0", "localhost:70000", "ftp://host:21",
		"http://", "http://host:8080/?x=1", "http://host:8080/#top", "http://u:p@host:8080", "http://host:port",
	} {
		if got, err := serverURL(in); err == nil {
			t.Errorf("serverURL(%q) = %q, want an error", in, got)
		}
	}
}

// TestBenchAndReplayTakeBothForms: the flags themselves accept a URL and host:port alike.
func TestBenchAndReplayTakeBothForms(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:18110", "http://127.0.0.1:18110/"} {
		c, err := parseBench([]string{"--addr", addr, "--baseline-addr", addr}, envOf(nil), nil)
		if err != nil || c.addr != "http://127.0.0.1:18110" || c.baseline != c.addr {
			t.Errorf("bench --addr %s: %+v, %v", addr, c, err)
		}
		r, err := parseReplay([]string{"some-id", "--server", addr}, envOf(nil), nil)
		if err != nil || r.server != "http://127.0.0.1:18110" {
			t.Errorf("replay --server %s: %+v, %v", addr, r, err)
		}
	}
	if _, err := parseBench([]string{"--addr", "nowhere"}, envOf(nil), nil); err == nil {
		t.Error("bench --addr nowhere was accepted")
	}
	if _, err := parseReplay([]string{"some-id", "--server", "ftp://x:1"}, envOf(nil), nil); err == nil {
		t.Error("replay --server ftp://x:1 was accepted")
	}
}
