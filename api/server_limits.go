package api

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/api/ratelimit"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/quota"
	"github.com/allfives/allfives/domain/app/referee"
)

// Rate is a limit of N requests per Per for one client, in bursts of N: the bucket holds N
// and refills at N per Per. The zero value limits nothing.
type Rate struct {
	N   int
	Per time.Duration
}

// Off says whether r limits nothing.
func (r Rate) Off() bool { return r.N <= 0 || r.Per <= 0 }

// String writes r as ParseRate reads it.
func (r Rate) String() string {
	if r.Off() {
		return "0"
	}
	return strconv.Itoa(r.N) + "/" + shortDuration(r.Per)
}

// shortDuration is d as time.ParseDuration reads it, without the zero units String adds
// ("1h", not "1h0m0s").
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// ParseRate reads a rate as N/DURATION ("20/1h", "60/10m"), or "0" for none.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return Rate{}, nil
	}
	n, per, ok := strings.Cut(s, "/")
	count, err := strconv.Atoi(n)
	if !ok || err != nil || count < 1 {
		return Rate{}, fmt.Errorf("a rate is a count and a duration, like 20/1h, or 0 for none; not %q", s)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d < time.Second {
		return Rate{}, fmt.Errorf("a rate's duration is one second or more, like 1h or 10m; not %q", per)
	}
	return Rate{N: count, Per: d}, nil
}

// Limits are the limits on what one client may ask of the server (docs/operations.md,
// "Limits"): each its own bucket, counted per client address (ratelimit.Bucket) and, where the request
// carries a player key, per player too. A zero Rate limits nothing, and so the zero Limits
// (tests and benchmarks: serve --limits off).
type Limits struct {
	Players    Rate // players created
	Challenges Rate // challenges created: matches with a seat reserved for a player
	Reviews    Rate // reviews asked for that the server then computes
	Tickets    Rate // stream tickets issued, the player's and a seat's
	BotMatches Rate // matches of bots only created
	Seeks      Rate // seeks made (Play now): one client cannot flood the pool
	// Attempts are puzzle attempts (docs/puzzles.md): each is a store read, a rated one a write.
	Attempts Rate
}

// DefaultLimits are serve's limits unless configured: far above what a person does, far below
// what a script does (docs/operations.md, "Limits").
func DefaultLimits() Limits {
	return Limits{
		Players:    Rate{N: 20, Per: time.Hour},
		Challenges: Rate{N: 60, Per: time.Hour},
		Reviews:    Rate{N: 20, Per: time.Hour},
		Tickets:    Rate{N: 120, Per: 10 * time.Minute},
		BotMatches: Rate{N: 30, Per: time.Hour},
		Seeks:      Rate{N: 60, Per: time.Hour},
		Attempts:   Rate{N: 300, Per: time.Hour},
	}
}

// limit is one of Limits at work: its buckets, and the words of its refusal.
type limit struct {
	what    string // what it counts, as the refusal says it: "players created"
	rate    Rate
	buckets *ratelimit.Limiter
}

// limits are the server's limits at work; a nil *limit limits nothing.
type limits struct {
	players, challenges, reviews, tickets, botMatches *limit
	seeks, attempts                                   *limit
}

func newLimits(l Limits) limits {
	return limits{
		players:    newLimit("players created", l.Players),
		challenges: newLimit("challenges created", l.Challenges),
		reviews:    newLimit("reviews asked for", l.Reviews),
		tickets:    newLimit("stream tickets issued", l.Tickets),
		botMatches: newLimit("matches of bots only created", l.BotMatches),
		seeks:      newLimit("seeks made", l.Seeks),
		attempts:   newLimit("puzzle attempts", l.Attempts),
	}
}

func newLimit(what string, r Rate) *limit {
	if r.Off() {
		return nil
	}
	per := rate.Limit(float64(r.N) / r.Per.Seconds())
	return &limit{what: what, rate: r, buckets: ratelimit.NewBuckets(per, r.N)}
}

// admit counts one request of the client of c, and of player when it is not "", against l:
// nil, or 429 RATE_LIMITED with Retry-After and the limit in its words. Both buckets count it
// or neither does.
func (l *limit) admit(c echo.Context, player string) error {
	if l == nil {
		return nil
	}
	d, which := l.buckets.Take(clientKeys(c, player)...)
	if d <= 0 {
		return nil
	}
	who := "this client address"
	if which == 1 {
		who = "this player"
	}
	secs := int(math.Ceil(d.Seconds()))
	return &problem.Error{
		Code:       quota.CodeRateLimited,
		RetryAfter: secs,
		Detail: fmt.Sprintf("%s has reached its limit of %s (%d every %s); retry after %d s",
			who, l.what, l.rate.N, shortDuration(l.rate.Per), secs),
	}
}

// clientKeys name the client of c in every limit: its address (ratelimit.Bucket), and its player when
// player is not "".
func clientKeys(c echo.Context, player string) []string {
	keys := []string{"a/" + ratelimit.Bucket(c.RealIP())}
	if player != "" {
		keys = append(keys, "p/"+player)
	}
	return keys
}

// keyPlayer is the id of the player whose key is key, or "" when key is none or no valid one
// (the call then refuses it in its own words). Only a limit asks, so only with limits on.
func (s *server) keyPlayer(ctx context.Context, key string) string {
	if s.players == nil || !players.IsKey(key) {
		return ""
	}
	p, err := s.players.Authenticate(ctx, key)
	if err != nil {
		return ""
	}
	return p.ID
}

// admitCreate counts a create against its limit: a match of bots only against BotMatches, a
// challenge (a seat reserved for a player) against Challenges, also per the creator's player
// when it sends its key. Other matches are not limited here.
func (s *server) admitCreate(c echo.Context, req referee.CreateRequest) error {
	botsOnly, challenge := len(req.Players) > 0, false
	for _, p := range req.Players {
		botsOnly = botsOnly && p.Kind == domain.Bot
		challenge = challenge || (p.Player != "" && p.Player != referee.Me)
	}
	switch {
	case botsOnly && s.limits.botMatches != nil:
		// The key's player too: its tournaments' tables of bots count against the same
		// bucket (admitBotTable).
		return s.limits.botMatches.admit(c, s.keyPlayer(c.Request().Context(), req.Key))
	case challenge && s.limits.challenges != nil:
		return s.limits.challenges.admit(c, s.keyPlayer(c.Request().Context(), req.Key))
	}
	return nil
}

// admitBotTable counts a tournament's table of bots only against its organiser's bots-only
// limit, the bucket a bots-only create with the organiser's key takes from (docs/tournaments.md,
// "Limits"): ok is false while the bucket is empty, and the table waits; undo gives the count
// back when the table is not created after all (the bot pool is full).
func (l *limit) admitBotTable(organiser string) (undo func(), ok bool) {
	if l == nil {
		return func() {}, true
	}
	_, _, undo = l.buckets.TakeUndo("p/" + organiser)
	return undo, undo != nil
}
