// Package ratelimit is a token bucket per key (a client address's bucket, or a player) that
// says how long a refused request must wait: the --rate-limit middleware, and each limit of
// the API's Limits.
package ratelimit

import (
	"math"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain/app/quota"
	"golang.org/x/time/rate"
)

// idleAfter is how long a client's bucket is kept after its last request, at the least. A
// bucket idle for as long as it takes to refill completely changes nothing for its client
// when it is forgotten: the limiter keeps each one that long (Limiter.idle).
const idleAfter = 3 * time.Minute

// Limiter is a token bucket per key: a client address (Bucket), or a player. Echo's own
// limiter cannot say how long to wait, and a 429 without Retry-After leaves clients guessing,
// hence this small one. The --rate-limit middleware and each limit of the API's Limits are one each.
type Limiter struct {
	mu        sync.Mutex
	limit     rate.Limit
	burst     int
	idle      time.Duration // how long a bucket is kept without a request
	clients   map[string]*client
	lastSweep time.Time
	now       func() time.Time
}

type client struct {
	bucket   *rate.Limiter
	lastSeen time.Time
	// given is how many counted requests were given back (TakeUndo): each lets one more
	// request through without a token. A reservation cannot be given back once its time has
	// passed, hence this count beside the bucket.
	given int
}

// New allows perSecond requests per second per address, with bursts of as many
// requests as one second allows (at least one).
func New(perSecond float64) *Limiter {
	return NewBuckets(rate.Limit(perSecond), max(1, int(math.Ceil(perSecond))))
}

// NewBuckets allows limit requests per second per key, in bursts of burst.
func NewBuckets(limit rate.Limit, burst int) *Limiter {
	full := time.Duration(float64(burst) / float64(limit) * float64(time.Second))
	return &Limiter{
		limit: limit, burst: burst, idle: max(idleAfter, full),
		clients: make(map[string]*client), now: time.Now, lastSweep: time.Now(),
	}
}

// wait reports how long the client at addr must wait before its request is allowed; zero
// means it is allowed now (and counted).
func (l *Limiter) wait(addr string) time.Duration {
	d, _ := l.Take(addr)
	return d
}

// Take counts one request against the bucket of each key, all or none: zero when every bucket
// allows it, else the longest wait and the index of the key that must wait it, and no bucket
// counts the refused request.
func (l *Limiter) Take(keys ...string) (time.Duration, int) {
	d, which, _ := l.TakeUndo(keys...)
	return d, which
}

// TakeUndo is Take, with undo, to call at most once, which gives a counted request back to
// every bucket it was counted in (a request that did not happen after all); undo is nil when
// the request was refused.
func (l *Limiter) TakeUndo(keys ...string) (time.Duration, int, func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.lastSweep) > l.idle {
		for a, c := range l.clients {
			if now.Sub(c.lastSeen) > l.idle {
				delete(l.clients, a)
			}
		}
		l.lastSweep = now
	}
	var longest time.Duration
	which := 0
	type counted struct {
		c *client
		r *rate.Reservation // nil: counted against a request given back
	}
	held := make([]counted, 0, len(keys))
	for _, key := range keys {
		c := l.clients[key]
		if c == nil {
			c = &client{bucket: rate.NewLimiter(l.limit, l.burst)}
			l.clients[key] = c
		}
		c.lastSeen = now
		if c.given > 0 {
			c.given--
			held = append(held, counted{c: c})
			continue
		}
		r := c.bucket.ReserveN(now, 1)
		held = append(held, counted{c: c, r: r})
		if d := r.DelayFrom(now); d > longest {
			longest, which = d, len(held)-1
		}
	}
	if longest > 0 {
		for _, h := range held {
			if h.r == nil {
				h.c.given++
				continue
			}
			h.r.CancelAt(now) // a refused request must not use up the tokens it waited for
		}
		return longest, which, nil
	}
	return 0, which, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, h := range held {
			h.c.given++
		}
	}
}

// Middleware answers 429 RATE_LIMITED with Retry-After (whole seconds, rounded up).
func (l *Limiter) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch c.Path() {
		case "/healthz", "/readyz", "/metrics":
			return next(c) // probes and scrapes must never be throttled into a false alarm
		}
		if d := l.wait(Bucket(c.RealIP())); d > 0 {
			secs := int(math.Ceil(d.Seconds()))
			return &problem.Error{
				Code:       quota.CodeRateLimited,
				Detail:     "too many requests from this address; retry after " + strconv.Itoa(secs) + " s",
				RetryAfter: secs,
			}
		}
		return next(c)
	}
}

// Bucket names the bucket of a client address: an IPv4 address (IPv4-mapped IPv6 included)
// is its own, an IPv6 address shares one with its /64. A single IPv6 host is usually given a
// whole /64 and can pick any address in it, so a bucket per address would not limit it at all,
// and would let it fill the table with buckets.
func Bucket(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	addr = addr.Unmap()
	if addr.Is4() {
		return addr.String()
	}
	return netip.PrefixFrom(addr.WithZone(""), 64).Masked().String()
}
