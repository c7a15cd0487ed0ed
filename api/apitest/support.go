package apitest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// Clock is the one clock tests move by hand, so that no test sleeps for a deadline. A Clock
// from NewClock stands still at its start until Set or Advance moves it; the zero Clock runs
// with the real time, shifted by what Advance adds (a ticket's expiry, a key's age).
type Clock struct {
	mu    sync.Mutex
	fixed bool
	at    time.Time
	skew  time.Duration
}

// NewClock is a clock standing at start.
func NewClock(start time.Time) *Clock { return &Clock{fixed: true, at: start} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fixed {
		return time.Now().Add(c.skew)
	}
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

// SyncBuffer is a bytes.Buffer safe for a server's goroutines to write into: a log, a run's
// stdout.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p under the lock.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Logged returns the first JSON log line with message msg, or nil.
func (s *SyncBuffer) Logged(msg string) map[string]any {
	sc := bufio.NewScanner(strings.NewReader(s.String()))
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) == nil && line["msg"] == msg {
			return line
		}
	}
	return nil
}
