package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"testing"

	"github.com/allfives/allfives/api"
)

// TestConcurrentClients: both seats of a match move from several goroutines at once (some
// with If-Match, some with Idempotency-Keys, some reusing each other's keys), while spectators
// and seats read every endpoint and a careless client posts garbage. Nothing is a 5xx, every
// refusal is a problem of the kind a race can cause, and afterwards the record audits clean
// and the views agree with the log. Run with -race, this is also a data-race check of the
// service's locking. Work is counted, not timed.
func TestConcurrentClients(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	var wg sync.WaitGroup
	fail := func(format string, args ...any) { t.Errorf(format, args...) }
	for seat := range 2 {
		for g := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				raceMoves(h, tb, seat, g, fail)
			}()
		}
	}
	for _, who := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var hdr []string
			if who >= 0 {
				hdr = auth(tb.tokens[who])
			}
			for i := range 15 {
				for _, p := range []string{"", "/events", "/export", "/export?format=text", "/audit", fmt.Sprintf("/replay?step=%d", 1+i%2)} {
					if r := h.do(http.MethodGet, tb.path(p), nil, hdr...); r.status != 200 {
						fail("GET %s as %d: %d %s", p, who, r.status, r.body)
					}
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 40 {
			body := []string{`{"action":`, `{"action":"play","tile":46}`, `{"action":"play","action":"draw"}`, `[`}[i%4]
			if r := h.do(http.MethodPost, tb.path("/moves"), body, auth(tb.tokens[i%2])...); r.status != 400 {
				fail("garbage %s: %d %s", body, r.status, r.body)
			}
		}
	}()
	wg.Wait()

	log := tb.fullLog()
	for i, e := range log {
		if e.Seq != i+1 {
			t.Fatalf("event %d has seq %d", i+1, e.Seq)
		}
	}
	if v := tb.view(-1); v.Version != len(log) || len(log) < 3 {
		t.Fatalf("the view is at version %d, the log holds %d events", v.Version, len(log))
	}
	if rep := tb.audit(-1); !rep.OK {
		t.Fatalf("the record does not hold up after the race: %s", jsonOf(t, rep))
	}
	t.Logf("%d events after the race", len(log))
}

// raceMoves is goroutine g of seat's movers: up to 25 moves, some conditional, some keyed,
// each racing the other goroutines. fail reports anything but a refusal a race can cause.
func raceMoves(h *harness, tb *table, seat, g int, fail func(format string, args ...any)) {
	// Up to 25 moves each; a goroutine whose seat is not to move reads again, a bounded
	// number of times, so the test cannot spin forever once the match has ended.
	for i, tries := 0, 0; i < 25 && tries < 400; tries++ {
		var lm api.LegalMovesResponse
		r := h.do(http.MethodGet, tb.path("/legal-moves"), nil, auth(tb.tokens[seat])...)
		if err := json.Unmarshal(r.body, &lm); r.status != 200 || err != nil {
			fail("legal moves: %d %s", r.status, r.body)
			return
		}
		if len(lm.LegalMoves) == 0 {
			runtime.Gosched()
			continue
		}
		i++
		var hdr []string
		switch i % 3 {
		case 0:
			hdr = []string{"If-Match", fmt.Sprint(lm.Version)}
		case 1:
			hdr = []string{"Idempotency-Key", fmt.Sprintf("k-%d-%d", g, i)} // the other seat's goroutine g uses it too
		}
		r = tb.move(seat, asMove(pick(lm.LegalMoves, i+g)), hdr...)
		switch r.status {
		case 200, 409, 422: // moved; raced (another goroutine moved first); or now illegal, or a key the other seat used
		default:
			fail("move by seat %d: %d %s", seat, r.status, r.body)
		}
	}
}
