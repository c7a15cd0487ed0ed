package sse

import (
	"sync"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain/app/quota"
)

// The default caps on live streams. A stream holds a goroutine, a connection and its buffers
// for as long as the match lasts, and --rate-limit cannot bound them (a stream is one request),
// so they are counted: in all, and per client address (per /64 for IPv6, like the rate limit).
const (
	DefaultMaxStreams          = 1000
	DefaultMaxStreamsPerClient = 16
	// streamRetryAfter is the Retry-After, in seconds, of a stream refused for a cap.
	streamRetryAfter = 5
)

// Caps counts the open streams against the caps.
type Caps struct {
	max, perClient int
	mu             sync.Mutex
	open           int
	byClient       map[string]int
}

// NewCaps caps the streams at max in all and perClient per client (0: the defaults).
func NewCaps(max, perClient int) *Caps {
	if max <= 0 {
		max = DefaultMaxStreams
	}
	if perClient <= 0 {
		perClient = DefaultMaxStreamsPerClient
	}
	return &Caps{max: max, perClient: perClient, byClient: map[string]int{}}
}

// Take counts a stream for client (a client address's bucket, ratelimit.Bucket), or refuses
// it: 429 RATE_LIMITED when the client has its share open, 503 UNAVAILABLE when the server
// has. The release func must be called when the stream ends.
func (sc *Caps) Take(client string) (release func(), err error) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	switch {
	case sc.byClient[client] >= sc.perClient:
		return nil, &problem.Error{Code: quota.CodeRateLimited, RetryAfter: streamRetryAfter,
			Detail: "this client address has as many live streams open as it may; close one, or try again later"}
	case sc.open >= sc.max:
		return nil, &problem.Error{Code: problem.CodeUnavailable, RetryAfter: streamRetryAfter,
			Detail: "the server has as many live streams open as it may; try again later"}
	}
	sc.open++
	sc.byClient[client]++
	var once sync.Once
	return func() {
		once.Do(func() {
			sc.mu.Lock()
			defer sc.mu.Unlock()
			sc.open--
			if sc.byClient[client]--; sc.byClient[client] == 0 {
				delete(sc.byClient, client)
			}
		})
	}, nil
}
