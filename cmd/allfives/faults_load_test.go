package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// load is clients playing matches of two humans through one base URL, as a careful client
// does: every move carries an Idempotency-Key and is sent again, same key, after a 503 or a
// lost answer, until it is answered. It counts what it was answered and what it acknowledged.
type load struct {
	base    string
	client  *http.Client
	stop    atomic.Bool
	acked   atomic.Int64
	mu      sync.Mutex
	status  map[int]int // answers by status
	lost    int         // requests that got no answer at all
	stale   int         // reads older than the client's last acknowledged move
	matches map[string]*played
	wg      sync.WaitGroup
}

// played is what one match's client acknowledged: each event of an acknowledged move by seq.
type played struct {
	opening int
	acked   map[int]string
}

func newLoad(base string) *load {
	return &load{base: base, client: &http.Client{Timeout: time.Minute}, status: map[int]int{}, matches: map[string]*played{}}
}

// run starts n clients.
func (l *load) run(t *testing.T, n int) {
	for c := range n {
		l.wg.Go(func() { l.play(t, c) })
	}
}

// halt stops the clients after the moves they are sending, and waits for them.
func (l *load) halt() {
	l.stop.Store(true)
	l.wg.Wait()
}

// call sends one request and counts its answer.
func (l *load) call(method, path, token, key, body string) (int, []byte) {
	req, _ := http.NewRequest(method, l.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := l.client.Do(req)
	var b []byte
	if err == nil {
		b, err = io.ReadAll(res.Body)
		res.Body.Close()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.lost++
		return 0, nil
	}
	l.status[res.StatusCode]++
	return res.StatusCode, b
}

// until sends a request until it is answered 2xx or 409, pausing after anything else; it
// gives up (ok false) only after two minutes.
func (l *load) until(t *testing.T, method, path, token, key, body string, out any) (status int, ok bool) {
	for start := time.Now(); time.Since(start) < 2*time.Minute; time.Sleep(100 * time.Millisecond) {
		st, b := l.call(method, path, token, key, body)
		if st == http.StatusConflict {
			return st, true
		}
		if st >= 200 && st < 300 {
			if err := json.Unmarshal(b, out); err != nil {
				t.Errorf("%s %s: %v", method, path, err)
				return st, false
			}
			return st, true
		}
	}
	t.Errorf("%s %s: no answer in two minutes", method, path)
	return 0, false
}

// play is one client: a match, then another, until halted.
func (l *load) play(t *testing.T, c int) {
	for !l.stop.Load() && !t.Failed() {
		var created api.CreateMatchResponse
		if _, ok := l.until(t, http.MethodPost, "/api/v1/matches", "", "", `{"players":[{"name":"ann","kind":"human"},{"name":"bob","kind":"human"}]}`, &created); !ok {
			return
		}
		id := created.Match.ID
		p := &played{opening: created.Match.Version, acked: map[int]string{}}
		l.mu.Lock()
		l.matches[id] = p
		l.mu.Unlock()
		tokens := map[int]string{}
		for _, tk := range created.Tokens {
			tokens[tk.Seat] = tk.Token
		}
		if !l.playMatch(t, c, id, tokens, p, created.Match) {
			return
		}
	}
}

// playMatch plays both seats of match id until it ends or the load halts.
func (l *load) playMatch(t *testing.T, c int, id string, tokens map[int]string, p *played, view api.MatchView) bool {
	for view.Status != "finished" && !l.stop.Load() {
		seat := *view.Turn
		var lm api.LegalMovesResponse
		if st, ok := l.until(t, http.MethodGet, "/api/v1/matches/"+id+"/legal-moves", tokens[seat], "", "", &lm); !ok || st == http.StatusConflict {
			return false
		}
		if lm.Version < view.Version || len(lm.LegalMoves) == 0 {
			l.mu.Lock()
			l.stale++
			l.mu.Unlock()
			continue
		}
		mv := lm.LegalMoves[0]
		body := `{"action":"` + mv.Action + `"}`
		if mv.Action == "play" {
			body = `{"action":"play","tile":"` + mv.Tile + `","end":"` + mv.End + `"}`
		}
		var res api.MoveResponse
		st, ok := l.until(t, http.MethodPost, "/api/v1/matches/"+id+"/moves", tokens[seat], fmt.Sprintf("c%d-%s-%d", c, id, lm.Version), body, &res)
		if !ok {
			return false
		}
		if st == http.StatusConflict {
			continue // counted; read again
		}
		l.mu.Lock()
		for _, e := range res.Events {
			p.acked[e.Seq] = e.Type
		}
		l.mu.Unlock()
		l.acked.Add(1)
		view = res.Match
	}
	return true
}

// waitAcked waits until n more moves are acknowledged than when called, for up to three
// minutes.
func (l *load) waitAcked(t *testing.T, n int64) {
	t.Helper()
	want := l.acked.Load() + n
	for start := time.Now(); l.acked.Load() < want && !t.Failed(); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 3*time.Minute {
			t.Fatalf("%d moves acknowledged in three minutes, want %d", l.acked.Load(), want)
		}
	}
}

// verify reads every match's stored log and audit through the balancer and counts the
// acknowledged events missing from the log (lost), the stored events no one acknowledged
// (extra: a move stored twice would be one) and the audits not ok.
func (l *load) verify(t *testing.T) (lost, extra, badAudits int) {
	t.Helper()
	for id, p := range l.matches {
		var stored []api.Event
		for {
			var page api.EventsResponse
			if _, ok := l.until(t, http.MethodGet, fmt.Sprintf("/api/v1/matches/%s/events?after=%d&limit=1000", id, len(stored)), "", "", "", &page); !ok {
				return
			}
			stored = append(stored, page.Events...)
			if len(page.Events) < 1000 {
				break
			}
		}
		for seq, typ := range p.acked {
			if seq > len(stored) || stored[seq-1].Type != typ {
				lost++
			}
		}
		extra += len(stored) - p.opening - len(p.acked)
		var rep api.AuditReport
		if _, ok := l.until(t, http.MethodGet, "/api/v1/matches/"+id+"/audit", "", "", "", &rep); !ok || !rep.OK || rep.Events != len(stored) {
			badAudits++
		}
	}
	return lost, extra, badAudits
}

// answers is the count of answers by status, and of those other than 2xx, 409 and 503.
func (l *load) answers() (summary string, other int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var codes []int
	for st := range l.status {
		codes = append(codes, st)
	}
	sort.Ints(codes)
	var b bytes.Buffer
	for _, st := range codes {
		fmt.Fprintf(&b, "%d×%d ", l.status[st], st)
		if !(st >= 200 && st < 300 || st == http.StatusConflict || st == http.StatusServiceUnavailable) {
			other += l.status[st]
		}
	}
	fmt.Fprintf(&b, "no answer×%d", l.lost)
	return b.String(), other + l.lost
}
