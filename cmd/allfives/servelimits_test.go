package main

import (
	"flag"
	"io"
	"net"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
)

// TestServeLimitsConfig: the limits are on by default, each set by its flag or variable, all
// off with --limits off; --trusted-proxies takes CIDRs and addresses; a bad value is an error
// that names it.
func TestServeLimitsConfig(t *testing.T) {
	def := server.DefaultLimits()
	if def.API.Players.Off() || def.API.Challenges.Off() || def.API.Reviews.Off() || def.API.Tickets.Off() || def.API.BotMatches.Off() ||
		def.MaxChallenges != 20 || def.RunningReviews < 1 || def.BotQueue < 1 {
		t.Fatalf("a limit is off by default: %+v", def)
	}
	_, ten, _ := net.ParseCIDR("10.0.0.0/8")
	_, one, _ := net.ParseCIDR("192.0.2.7/32")
	tuned := def
	tuned.API.Players, tuned.API.BotMatches = api.Rate{N: 5, Per: 10 * time.Minute}, api.Rate{}
	tuned.MaxChallenges, tuned.BotQueue, tuned.Trusted = 3, 0, []*net.IPNet{ten, one}
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want server.Limits
	}{
		{"defaults", nil, nil, def},
		{"tuned", []string{"--limit-players", "5/10m", "--bot-queue", "0", "--trusted-proxies", "10.0.0.0/8, 192.0.2.7"},
			map[string]string{"ALLFIVES_LIMIT_BOT_MATCHES": "0", "ALLFIVES_MAX_WAITING_CHALLENGES": "3", "ALLFIVES_LIMIT_PLAYERS": "9/1h"}, tuned},
		{"off", []string{"--limits", "off", "--limit-players", "5/10m"}, nil, server.Limits{}},
		{"off by the environment", nil, map[string]string{"ALLFIVES_LIMITS": "off"}, server.Limits{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseServe(c.args, envOf(c.env), io.Discard)
			if err != nil || !reflect.DeepEqual(got.Limits, c.want) {
				t.Fatalf("got %+v, %v; want %+v", got.Limits, err, c.want)
			}
		})
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--limits", "maybe"}, "limits must be on or off"},
		{[]string{"--limit-players", "lots"}, "like 20/1h"},
		{[]string{"--limit-reviews", "5/1ms"}, "one second or more"},
		{[]string{"--max-waiting-challenges", "-1"}, "0 (no bound) or more"},
		{[]string{"--trusted-proxies", "10.0.0.0/99"}, "trusted-proxies"},
		{[]string{"--trusted-proxies", "proxy.example"}, "trusted-proxies"},
	} {
		if _, err := parseServe(c.args, envOf(nil), io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error containing %q", c.args, err, c.want)
		}
	}
}

// TestLimitFlagsDocumented: docs/operations.md's table of limits has a row for every limit's
// flag, with its variable and its default as serve has them.
func TestLimitFlagsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	f := newEnvFlags("serve", envOf(nil), io.Discard)
	limitFlags(f)
	n := 0
	f.fs.VisitAll(func(fl *flag.Flag) {
		n++
		env := fl.Usage[strings.LastIndex(fl.Usage, "($")+2 : len(fl.Usage)-1]
		def := "`" + fl.DefValue + "`"
		if fl.DefValue == "" {
			def = "none"
		}
		row := "| `--" + fl.Name + "` | `" + env + "` | " + def + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/operations.md has no row starting %q", row)
		}
	})
	if n < 10 {
		t.Fatalf("%d limit flags", n)
	}
}
