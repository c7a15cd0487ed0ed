package referee

import "sync"

// watchers wakes those following a match whenever its log grows. A wake-up carries no data:
// the follower reads the new events through Events, so what it sees is always redacted there.
type watchers struct {
	mu   sync.Mutex
	byID map[string]map[chan struct{}]struct{}
}

// Watch returns a channel that receives a signal after each append to match id (signals
// coalesce: one pending signal stands for any number of appends), and a cancel func that must
// be called when the follower leaves.
func (s *MatchService) Watch(id string) (<-chan struct{}, func()) {
	w := &s.watch
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	if w.byID == nil {
		w.byID = make(map[string]map[chan struct{}]struct{})
	}
	if w.byID[id] == nil {
		w.byID[id] = make(map[chan struct{}]struct{})
	}
	w.byID[id][ch] = struct{}{}
	w.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			w.mu.Lock()
			delete(w.byID[id], ch)
			if len(w.byID[id]) == 0 {
				delete(w.byID, id)
			}
			w.mu.Unlock()
		})
	}
}

// wake signals every follower of match id without blocking.
func (w *watchers) wake(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.byID[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
