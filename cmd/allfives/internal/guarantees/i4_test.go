package guarantees

import (
	"context"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/allfives/allfives/domain/app/referee"
)

// seedBook knows the seed of every match in the store, read past the API: a seed shared by
// a duplicate round's tables names each of them.
type seedBook struct {
	mu     sync.Mutex
	byHex  map[string][]string
	known  map[string]bool
	stale  bool
	listed int
}

// markStale says matches may have been made since the book was read.
func (b *seedBook) markStale() {
	b.mu.Lock()
	b.stale = true
	b.mu.Unlock()
}

// matchesOf are the matches dealt from seed (hex), reading the store for matches made since
// the last read first.
func (s *suite) matchesOf(seed string) []string {
	b := s.seedBook
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byHex == nil || b.stale {
		s.readSeeds(b)
	}
	return b.byHex[seed]
}

// readSeeds pages through every match in the store and reads the seed of each it does not
// know yet.
func (s *suite) readSeeds(b *seedBook) {
	s.t.Helper()
	if b.byHex == nil {
		b.byHex, b.known = map[string][]string{}, map[string]bool{}
	}
	ctx := context.Background()
	q := referee.HistoryQuery{Limit: 100}
	for {
		page, err := s.srv.Store.History(ctx, q)
		if err != nil {
			s.t.Fatalf("list every match: %v", err)
		}
		for _, it := range page.Matches {
			if b.known[it.ID] {
				continue
			}
			st, err := s.srv.Store.Match(ctx, it.ID)
			if err != nil {
				s.t.Fatalf("seed of %s: %v", it.ID, err)
			}
			h := hex.EncodeToString(st.Record.Seed[:])
			b.byHex[h] = append(b.byHex[h], it.ID)
			b.known[it.ID] = true
		}
		if page.NextCursor == "" {
			break
		}
		q.Cursor = page.NextCursor
	}
	b.stale = false
}

// hexRuns are the runs of exactly 64 hexadecimal digits in text, lower-cased: what a seed
// looks like wherever it is written.
func hexRuns(text string) []string {
	isHex := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	var out []string
	for i := 0; i < len(text); {
		if !isHex(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isHex(text[j]) {
			j++
		}
		if j-i == 64 {
			out = append(out, strings.ToLower(text[i:j]))
		}
		i = j
	}
	return out
}

// checkI4 holds I4 (seeds) on an answer: no seed is shown while a match dealt from it is
// waiting, being played, or sealed in its round. A match that ended since the answer counts
// as ended, so that the check never blames an answer for what came after it.
func (s *suite) checkI4(v seen) {
	s.t.Helper()
	for _, run := range hexRuns(v.a.text()) {
		for _, id := range s.matchesOf(run) {
			if m := s.truth.of(id); m != nil && (m.live() || m.sealed) {
				s.violation("I4", v, "the seed of match %s (%s) is shown while that match is %s (sealed %v)", id, run[:8]+"...", m.status, m.sealed)
			}
		}
	}
}
