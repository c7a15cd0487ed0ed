package referee

import "testing"

// TestHubQueueStaysBounded: announcements that arrive faster than they are routed never hold
// more than hubQueueSize ids; the ones dropped become one "" (any match may have moved), so
// no stream misses a change.
func TestHubQueueStaysBounded(t *testing.T) {
	h := &PlayerHub{signal: make(chan struct{}, 1)}
	for i := range 3*hubQueueSize + 5 {
		h.announce(string(rune('a' + i%26)))
		if len(h.queue) > hubQueueSize {
			t.Fatalf("after %d announcements the queue holds %d", i+1, len(h.queue))
		}
	}
	if h.queue[0] != "" {
		t.Errorf("the queue after an overflow starts %q, want the empty id (resync every stream)", h.queue[0])
	}
}
