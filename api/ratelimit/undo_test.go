package ratelimit

import (
	"testing"

	"golang.org/x/time/rate"
)

// TestTakeUndo: a counted request given back leaves its tokens in every bucket it took from,
// and a refused one has nothing to give back.
func TestTakeUndo(t *testing.T) {
	l := NewBuckets(rate.Limit(1.0/3600), 1)
	d, _, undo := l.TakeUndo("a", "p")
	if d != 0 || undo == nil {
		t.Fatalf("the first request: wait %s, undo %v", d, undo != nil)
	}
	if d, _, undo := l.TakeUndo("p"); d == 0 || undo != nil {
		t.Fatalf("a second request of p: wait %s, undo %v", d, undo != nil)
	}
	undo()
	for _, key := range []string{"a", "p"} {
		if d, _ := l.Take(key); d != 0 {
			t.Fatalf("after the undo, %s waits %s", key, d)
		}
	}
}
