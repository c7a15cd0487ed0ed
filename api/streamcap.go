package api

import (
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/problem"
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

// streamCaps counts the open streams against the caps.
type streamCaps struct {
	max, perClient int
	mu             sync.Mutex
	open           int
	byClient       map[string]int
}

func newStreamCaps(max, perClient int) *streamCaps {
	if max <= 0 {
		max = DefaultMaxStreams
	}
	if perClient <= 0 {
		perClient = DefaultMaxStreamsPerClient
	}
	return &streamCaps{max: max, perClient: perClient, byClient: map[string]int{}}
}

// take counts a stream for the client at ip, or refuses it: 429 RATE_LIMITED when the
// client has its share open, 503 UNAVAILABLE when the server has. The release func must be
// called when the stream ends.
func (sc *streamCaps) take(ip string) (release func(), err error) {
	client := bucketOf(ip)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	switch {
	case sc.byClient[client] >= sc.perClient:
		return nil, &problem.Error{Code: problem.CodeRateLimited, RetryAfter: streamRetryAfter,
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

// takeStream counts the request's stream against the caps.
func (s *server) takeStream(c echo.Context) (func(), error) {
	return s.caps.take(c.RealIP())
}
