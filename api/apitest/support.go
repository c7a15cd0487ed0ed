package apitest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/domain/app/tournaments"
)

// Clock is the one clock tests move by hand (refereetest.Clock), here for the api's tests.
type Clock = refereetest.Clock

// NewClock is a clock standing at start.
func NewClock(start time.Time) *Clock { return refereetest.NewClock(start) }

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

// onStop makes Stop (and the end of the test) run fn, before whatever was added earlier.
func (h *Harness) onStop(fn func()) { h.stops = append(h.stops, fn) }

// Stop shuts the harness down now, as the end of the test would: the live server, the
// tournaments' driver, the reviewer, the match service, then the store New opened. A test
// stops one harness before it opens another on the same file: a restart.
func (h *Harness) Stop() {
	h.once.Do(func() {
		for i := len(h.stops) - 1; i >= 0; i-- {
			h.stops[i]()
		}
	})
}

// Tournaments runs the tournament service's driver every 20 ms, as serve runs it, so that
// rounds start and end on their own; fn, if not nil, changes the service's config.
func Tournaments(fn func(*tournaments.Config)) Option {
	return func(c *config) { c.drive, c.tours = true, fn }
}
