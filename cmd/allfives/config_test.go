package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestServeConfigPrecedence: a flag wins over its variable, a variable over the default.
func TestServeConfigPrecedence(t *testing.T) {
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want serveConfig
	}{
		{"defaults", nil, nil, serveConfig{addr: ":8080", db: "allfives.db", sync: "full", logLevel: "info", cacheMiB: 256, accessSample: 100}},
		{"environment", nil, map[string]string{
			"ALLFIVES_ADDR": ":9000", "ALLFIVES_DB": "/tmp/x.db", "ALLFIVES_SYNC": "NORMAL",
			"ALLFIVES_LOG_LEVEL": "debug", "ALLFIVES_RATE_LIMIT": "2.5", "ALLFIVES_CACHE_MIB": "64",
		}, serveConfig{addr: ":9000", db: "/tmp/x.db", sync: "normal", logLevel: "debug", rateLimit: 2.5, cacheMiB: 64, accessSample: 100}},
		{"flags win", []string{"--addr", ":7000", "--rate-limit", "0", "--sync", "off"},
			map[string]string{"ALLFIVES_ADDR": ":9000", "ALLFIVES_RATE_LIMIT": "3"},
			serveConfig{addr: ":7000", db: "allfives.db", sync: "off", logLevel: "info", cacheMiB: 256, accessSample: 100}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseServe(c.args, envOf(c.env), io.Discard)
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// TestBadConfigIsAnError: a bad flag or variable is an error that names it, never a silent
// fallback to the default.
func TestBadConfigIsAnError(t *testing.T) {
	cases := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--sync", "sometimes"}, nil, "sync must be"},
		{nil, map[string]string{"ALLFIVES_RATE_LIMIT": "lots"}, "ALLFIVES_RATE_LIMIT"},
		{[]string{"--rate-limit", "-1"}, nil, "rate limit"},
		{[]string{"--nope"}, nil, "not defined"},
		{[]string{"extra"}, nil, "unexpected argument"},
	}
	for _, c := range cases {
		_, err := parseServe(c.args, envOf(c.env), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: got %v, want an error containing %q", c.args, c.env, err, c.want)
		}
	}
	err := run(context.Background(), []string{"serve", "--log-level", "loud", "--db", t.TempDir() + "/x.db"}, envOf(nil), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "log level") {
		t.Errorf("bad log level: %v", err)
	}
	db := filepath.Join(t.TempDir(), "x.db")
	err = run(context.Background(), []string{"serve", "--addr", "bad:addr:1", "--db", db}, envOf(nil), io.Discard)
	if _, statErr := os.Stat(db); err == nil || !errors.Is(statErr, fs.ErrNotExist) {
		t.Errorf("bad address: %v; the database must not be created (%v)", err, statErr)
	}
}

// TestCommands: help, -h and --help print the commands; an unknown command is an error; -h
// after a command prints that command's flags.
func TestCommands(t *testing.T) {
	var out bytes.Buffer
	for _, help := range []string{"help", "-h", "--help"} {
		out.Reset()
		if err := run(context.Background(), []string{help}, envOf(nil), &out); err != nil || !strings.Contains(out.String(), "simulate   play matches") {
			t.Fatalf("%s: %v %q", help, err, out.String())
		}
	}
	if err := run(context.Background(), []string{"frobnicate"}, envOf(nil), io.Discard); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("unknown command: %v", err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"serve", "-h"}, envOf(nil), &out); err != nil || !strings.Contains(out.String(), "ALLFIVES_ADDR") {
		t.Fatalf("serve -h: %v %q", err, out.String())
	}
}
