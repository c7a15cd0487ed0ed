package api_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/allfives/allfives/api"
)

// TestReadYourWritesAlternating: one client alternates between two instances for whole
// matches, a move on one, then its reads on the other, then its next move there: the state, the legal moves of the seat
// to move, the events and the replay of the last step. Every read shows the client's last
// acknowledged move, over at least 3,000 alternations, with If-Match on half the moves and
// without on the other half. Without LISTEN (follow=false) no announcement can help: only
// the head check does; with it, the announcement races the read.
func TestReadYourWritesAlternating(t *testing.T) {
	for _, follow := range []bool{false, true} {
		t.Run(fmt.Sprintf("follow=%v", follow), func(t *testing.T) {
			want := 3000
			if follow {
				want = 1000 // the weaker case for staleness; fewer keep the suite quick
			}
			if testing.Short() {
				want /= 10
			}
			c := newCluster(t, follow)
			alternations, stale, matches := 0, 0, 0
			for alternations < want {
				tb := c.inst[matches%2].create("", false, "human", "human")
				matches++
				acked := tb.view(-1).Version
				for turn := 0; ; turn++ {
					// Each turn reads and moves on one instance, the next turn on the other: every
					// read reaches the instance that did not make the last move.
					reader := tb.on(c.inst[(turn+matches)%2])
					mover := reader
					v := reader.view(-1)
					if v.Version != acked {
						stale++
						t.Errorf("alternation %d: the state shows version %d, the last move acknowledged %d", alternations, v.Version, acked)
					}
					if v.Status == "finished" {
						break
					}
					seat := *v.Turn
					lm := reader.legal(seat)
					if lm.Version != acked || len(lm.LegalMoves) == 0 {
						stale++
						t.Errorf("alternation %d: seat %d's legal moves at version %d (%d of them), the last move acknowledged %d", alternations, seat, lm.Version, len(lm.LegalMoves), acked)
						break
					}
					var ev api.EventsResponse
					if reader.fetch("/events?limit=10&after="+strconv.Itoa(acked-1), -1, &ev); ev.Version != acked || len(ev.Events) != 1 || ev.Events[0].Seq != acked {
						stale++
						t.Errorf("alternation %d: events after %d: %d of them at version %d, the last move acknowledged %d", alternations, acked-1, len(ev.Events), ev.Version, acked)
					}
					// A replay folds the log up to its step: one in ten keeps the test quick.
					if turn%10 == 0 {
						if r := reader.h.do(http.MethodGet, reader.path("/replay?step="+strconv.Itoa(acked)), nil); r.status != http.StatusOK {
							stale++
							t.Errorf("alternation %d: replay of step %d: %d %s", alternations, acked, r.status, r.body)
						}
					}
					var hdr []string
					if turn%2 == 0 {
						hdr = []string{"If-Match", strconv.Itoa(lm.Version)}
					}
					res := mover.mustMove(seat, asMove(pick(lm.LegalMoves, turn)), hdr...)
					acked = res.Match.Version
					alternations++
					if t.Failed() {
						return
					}
				}
				c.auditsClean(tb)
			}
			t.Logf("%d alternations over %d matches, %d stale reads", alternations, matches, stale)
		})
	}
}
