package refereetest

import (
	"sync"
	"time"
)

// Clock is the one clock tests move by hand (the referee's, the api harness's, the commands'),
// so that no test sleeps for a deadline. A Clock from NewClock stands still at its start until
// Set or Advance moves it; one from NewTickingClock moves a tick at each reading, so every
// event's time is distinct and repeatable; the zero Clock runs with the real time, shifted by
// what Advance adds (a ticket's expiry, a key's age).
type Clock struct {
	mu    sync.Mutex
	fixed bool
	at    time.Time
	skew  time.Duration
	tick  time.Duration
}

// NewClock is a clock standing at start.
func NewClock(start time.Time) *Clock { return &Clock{fixed: true, at: start} }

// NewTickingClock is a clock at start that moves tick ahead at each reading.
func NewTickingClock(start time.Time, tick time.Duration) *Clock {
	return &Clock{fixed: true, at: start, tick: tick}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fixed {
		return time.Now().Add(c.skew)
	}
	c.at = c.at.Add(c.tick)
	return c.at
}

// Set stands the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fixed, c.at = true, t
}

// Advance moves the clock d ahead.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
	c.skew += d
}
