package main

import (
	"fmt"
	"net"
	"strings"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
)

// limitFlags declares the limits (docs/operations.md, "Limits")' flags on f; the func it returns reads them once f is parsed.
func limitFlags(f *envFlags) func() (server.Limits, error) {
	d := server.DefaultLimits()
	on := f.string("limits", "ALLFIVES_LIMITS", "on", "on, or off to turn every limit below off (tests, benchmarks); docs/operations.md, \"Limits\"")
	rates := []struct {
		dst  *api.Rate
		flag *string
	}{
		{&d.API.Players, f.string("limit-players", "ALLFIVES_LIMIT_PLAYERS", d.API.Players.String(), "players created per client address, as N/DURATION; 0: none")},
		{&d.API.Challenges, f.string("limit-challenges", "ALLFIVES_LIMIT_CHALLENGES", d.API.Challenges.String(), "challenges created per client address and per player; 0: none")},
		{&d.API.Reviews, f.string("limit-reviews", "ALLFIVES_LIMIT_REVIEWS", d.API.Reviews.String(), "reviews queued per client address and per player; 0: none")},
		{&d.API.Tickets, f.string("limit-tickets", "ALLFIVES_LIMIT_TICKETS", d.API.Tickets.String(), "stream tickets issued per client address and per player; 0: none")},
		{&d.API.BotMatches, f.string("limit-bot-matches", "ALLFIVES_LIMIT_BOT_MATCHES", d.API.BotMatches.String(), "matches of bots only created per client address; 0: none")},
		{&d.API.Seeks, f.string("limit-seeks", "ALLFIVES_LIMIT_SEEKS", d.API.Seeks.String(), "seeks made (Play now) per client address and per player; 0: none")},
		{&d.API.Attempts, f.string("limit-puzzle-attempts", "ALLFIVES_LIMIT_PUZZLE_ATTEMPTS", d.API.Attempts.String(), "puzzle attempts per client address and per player; 0: none")},
	}
	challenges := f.int("max-waiting-challenges", "ALLFIVES_MAX_WAITING_CHALLENGES", d.MaxChallenges, "challenges waiting for an answer from one player, and to one player; 0: no bound")
	running := f.int("max-running-reviews", "ALLFIVES_MAX_RUNNING_REVIEWS", d.RunningReviews, "reviews one client address (or player) may have queued or being computed; 0: no bound")
	queue := f.int("bot-queue", "ALLFIVES_BOT_QUEUE", d.BotQueue, "matches of bots only the bot pool holds, queued or being played; beyond it 503 UNAVAILABLE; 0: no bound")
	proxies := f.string("trusted-proxies", "ALLFIVES_TRUSTED_PROXIES", "", "comma-separated CIDRs (or addresses) of the proxies whose X-Forwarded-For names the client; none by default: the connection's address is the client's")
	return func() (server.Limits, error) {
		var err error
		if d.Trusted, err = parseCIDRs(*proxies); err != nil {
			return d, err
		}
		switch strings.ToLower(*on) {
		case "off":
			return server.Limits{Trusted: d.Trusted}, nil
		case "on":
		default:
			return d, fmt.Errorf("limits must be on or off, not %q", *on)
		}
		for _, r := range rates {
			if *r.dst, err = api.ParseRate(*r.flag); err != nil {
				return d, fmt.Errorf("limit %q: %w", *r.flag, err)
			}
		}
		d.MaxChallenges, d.RunningReviews, d.BotQueue = *challenges, *running, *queue
		if d.MaxChallenges < 0 || d.RunningReviews < 0 || d.BotQueue < 0 {
			return d, fmt.Errorf("max-waiting-challenges, max-running-reviews and bot-queue must be 0 (no bound) or more")
		}
		return d, nil
	}
}

// parseCIDRs reads comma-separated CIDRs; an address alone is its own range (/32, /128).
func parseCIDRs(s string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			ip := net.ParseIP(part)
			if ip == nil {
				return nil, fmt.Errorf("trusted-proxies: %q is no address or CIDR", part)
			}
			bits := 128
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			out = append(out, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(part)
		if err != nil {
			return nil, fmt.Errorf("trusted-proxies: %q is no CIDR like 10.0.0.0/8", part)
		}
		out = append(out, n)
	}
	return out, nil
}
