package apitest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"sync"
)

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
