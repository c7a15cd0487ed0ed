package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestStreamAcrossPostgresRestart: two serve processes on a private PostgreSQL server.
// Clients play on one instance (moves keyed, sent again after a 503 or a lost answer), and a
// follower streams every match they play from the other, as EventSource does: resuming with
// Last-Event-ID whenever a stream ends, until the stream answers 204 (finished, nothing left).
// PostgreSQL is stopped for 2 s and started again under the load. Each stream must carry every
// event of its match's stored log exactly once, in order (no gap, no duplicate), and the
// events of moves made after the restart must reach the follower by the instance's LISTEN
// connection, which has to come back by itself: the follower's instance only learns of them
// from the announcements.
func TestStreamAcrossPostgresRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("a fault scenario of about half a minute; run without -short")
	}
	pg := pgtest.NewCluster(t)
	args := "--db " + pg.URL() + " --bot-workers 1 --max-streams-per-client 1000 --access-sample 1000"
	mover := newInstance(t, args) // migrates alone, before the other starts
	watcher := newInstance(t, args)
	l := newLoad("http://" + mover.addr)
	l.run(t, 4)
	defer l.halt()
	f := newFollower("http://" + watcher.addr)
	defer f.halt()
	stopWatching := make(chan struct{})
	var watching sync.WaitGroup
	watching.Go(func() { // a stream for every match the clients start
		for {
			l.mu.Lock()
			for id := range l.matches {
				f.follow(t, id)
			}
			l.mu.Unlock()
			select {
			case <-stopWatching:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	l.waitAcked(t, 100)

	pg.Stop()
	time.Sleep(2 * time.Second)
	pg.Start()
	back := untilReady(t, []*instance{mover, watcher})
	l.waitAcked(t, 100)
	l.halt()
	close(stopWatching)
	watching.Wait()
	if t.Failed() {
		return
	}

	// Every stream reaches its match's stored head, by itself and within seconds.
	var events, gaps, dups, late, matches int
	for id := range l.matches {
		stored := l.storedEvents(t, id)
		s := f.streams[id]
		if s == nil {
			t.Errorf("match %s: never streamed", id)
			continue
		}
		matches++
		deadline := time.Now().Add(30 * time.Second)
		for s.last() < len(stored) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		got := s.seqs()
		if s.last() < len(stored) {
			late++
			t.Errorf("match %s: the stream reached seq %d of %d within 30 s", id, s.last(), len(stored))
		}
		for i, seq := range got {
			switch {
			case seq <= i: // a seq again, or out of order
				dups++
			case seq > i+1:
				gaps++
			}
			if seq != i+1 {
				t.Errorf("match %s: event %d of the stream has seq %d (stream %v)", id, i+1, seq, got)
				break
			}
		}
		for i, typ := range s.types() {
			if i < len(stored) && stored[i].Type != typ {
				t.Errorf("match %s: the stream's event %d is %s, the log's %s", id, i+1, typ, stored[i].Type)
			}
		}
		events += len(got)
	}
	summary, _ := l.answers()
	f.mu.Lock()
	opened, refused, failed := f.opened, f.refused, f.failed
	f.mu.Unlock()
	t.Logf("%d moves acknowledged over %d matches, all streamed from the other instance: %d events streamed, gaps %d, duplicates %d, streams behind after 30 s %d; streams opened %d (the first of each match included), refused %d, cut %d; every instance ready %.1f s after PostgreSQL started; the movers' answers %s",
		l.acked.Load(), matches, events, gaps, dups, late, opened, refused, failed, back.Seconds(), summary)
}

// storedEvents is match id's whole log, read through l.
func (l *load) storedEvents(t *testing.T, id string) []api.Event {
	t.Helper()
	var stored []api.Event
	for {
		var page api.EventsResponse
		if _, ok := l.until(t, http.MethodGet, fmt.Sprintf("/api/v1/matches/%s/events?after=%d&limit=1000", id, len(stored)), "", "", "", &page); !ok {
			return stored
		}
		stored = append(stored, page.Events...)
		if len(page.Events) < 1000 {
			return stored
		}
	}
}

// follower streams matches from one instance as EventSource would, each stream resumed
// with Last-Event-ID after it ends, until it answers 204.
type follower struct {
	base    string
	client  *http.Client
	mu      sync.Mutex
	streams map[string]*followed
	opened  int // streams answered 200
	refused int // stream requests answered otherwise (503 while the database is down), or not at all
	failed  int // streams that ended before their match did
	stop    chan struct{}
	wg      sync.WaitGroup
}

// followed is what one match's streams delivered: each event's seq and type, in order.
type followed struct {
	mu  sync.Mutex
	got []int
	typ []string
}

func (s *followed) add(seq int, typ string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, seq)
	s.typ = append(s.typ, typ)
}

func (s *followed) last() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.got) == 0 {
		return 0
	}
	return s.got[len(s.got)-1]
}

func (s *followed) seqs() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.got...)
}

func (s *followed) types() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.typ...)
}

func newFollower(base string) *follower {
	return &follower{base: base, client: &http.Client{}, streams: map[string]*followed{}, stop: make(chan struct{})}
}

// follow starts following match id, once.
func (f *follower) follow(t *testing.T, id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.streams[id] != nil {
		return
	}
	s := &followed{}
	f.streams[id] = s
	f.wg.Go(func() { f.run(t, id, s) })
}

// halt ends every stream and waits for the followers.
func (f *follower) halt() {
	select {
	case <-f.stop:
	default:
		close(f.stop)
	}
	f.wg.Wait()
}

// run streams match id until it is answered 204 or the follower halts.
func (f *follower) run(t *testing.T, id string, s *followed) {
	for {
		select {
		case <-f.stop:
			return
		default:
		}
		done, err := f.once(id, s)
		if done {
			return
		}
		if err != nil {
			select {
			case <-f.stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// once opens one stream of match id after the last event s has, and reads it to its end.
// done says that the stream answered 204: the match is over and s has every event.
func (f *follower) once(id string, s *followed) (done bool, err error) {
	req, _ := http.NewRequest(http.MethodGet, f.base+"/api/v1/matches/"+id+"/stream", nil)
	if last := s.last(); last > 0 {
		req.Header.Set("Last-Event-ID", strconv.Itoa(last))
	}
	stopped := make(chan struct{})
	defer close(stopped)
	ctx, cancel := contextUntil(f.stop, stopped)
	defer cancel()
	res, err := f.client.Do(req.WithContext(ctx))
	if err != nil {
		f.count(&f.refused)
		return false, err
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusNoContent:
		return true, nil
	case http.StatusOK:
	default:
		f.count(&f.refused)
		return false, fmt.Errorf("stream: %s", res.Status)
	}
	f.count(&f.opened)
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	seq, typ, ended := 0, "", false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			seq, _ = strconv.Atoi(strings.TrimPrefix(line, "id: "))
		case strings.HasPrefix(line, "event: "):
			typ = strings.TrimPrefix(line, "event: ")
		case line == "" && seq > 0:
			s.add(seq, typ)
			ended = ended || typ == "match.ended" || typ == "match.expired"
			seq, typ = 0, ""
		}
	}
	if !ended && ctx.Err() == nil {
		f.count(&f.failed)
	}
	return false, sc.Err() // after match.ended, the next stream answers 204
}

func (f *follower) count(n *int) {
	f.mu.Lock()
	*n++
	f.mu.Unlock()
}

// contextUntil is a context cancelled once either channel is closed.
func contextUntil(a, b <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-a:
		case <-b:
		}
		cancel()
	}()
	return ctx, cancel
}
