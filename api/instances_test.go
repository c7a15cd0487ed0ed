package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// TestInstancesAlternate: one two-player match played to its end with each move sent to the
// other instance than the one the client read from, half of them with If-Match, half without.
// Followed, an instance mostly hears of the other's move before the next one reaches it; not
// followed, every move meets a cached copy one move old, which the append or the If-Match
// check finds stale and reloads. Either way every move succeeds, a stale If-Match is still
// refused with the stored version, reads never go back, and both instances audit clean.
func TestInstancesAlternate(t *testing.T) {
	for _, follow := range []bool{true, false} {
		t.Run(fmt.Sprintf("follow=%v", follow), func(t *testing.T) {
			c := newCluster(t, follow)
			tb := c.inst[0].create(seed1, false, "human", "human")
			acked := 0
			for turn := 0; ; turn++ {
				if turn > 5000 {
					t.Fatal("the match did not end in 5000 turns")
				}
				// The reader made the last move, so it must show at least that.
				reader, mover := tb.on(c.inst[turn%2]), tb.on(c.inst[1-turn%2])
				v := reader.view(-1)
				if v.Version < acked {
					t.Fatalf("turn %d: instance %d shows version %d after acknowledging %d", turn, turn%2, v.Version, acked)
				}
				if v.Status == "finished" {
					break
				}
				seat := v.Hand.Turn
				lm := reader.legal(seat)
				if turn == 9 {
					// A stale If-Match is a conflict that names the stored version, whatever
					// the instance had cached.
					stale := []string{"If-Match", strconv.Itoa(lm.Version - 1)}
					p := mover.move(seat, asMove(lm.LegalMoves[0]), stale...).problem(t, http.StatusConflict, "VERSION_CONFLICT")
					if p.CurrentVersion == nil || *p.CurrentVersion != lm.Version {
						t.Fatalf("conflict names version %v, want %d", p.CurrentVersion, lm.Version)
					}
				}
				var hdr []string
				if turn%4 < 2 {
					hdr = []string{"If-Match", strconv.Itoa(lm.Version)}
				}
				res := mover.mustMove(seat, asMove(pick(lm.LegalMoves, turn)), hdr...)
				if res.Match.Version <= lm.Version || res.Events[0].Seq != lm.Version+1 {
					t.Fatalf("turn %d: a move at version %d answered version %d from seq %d", turn, lm.Version, res.Match.Version, res.Events[0].Seq)
				}
				acked = res.Match.Version
			}
			if n := len(c.storedLog(tb.id)); n != acked {
				t.Fatalf("the log holds %d events, the last move acknowledged %d", n, acked)
			}
			c.auditsClean(tb)
		})
	}
}

// TestInstancesStream: a stream opened on instance A sees every event of the moves made on
// instance B, in order, exactly once, across reconnects with Last-Event-ID to A, to B, and
// back to A: the events of the stored log, each once.
func TestInstancesStream(t *testing.T) {
	c := newCluster(t, true)
	tb := c.inst[0].create(seed1, false, "human", "human")
	onB := tb.on(c.inst[1])
	url := c.srv[0].URL + tb.path("/stream")
	s, _ := openStream(t, url, auth(tb.tokens[0])...)
	var seen []int
	var frames []api.Event
	var slowest time.Duration
	// take reads the stream up to version, recording each seq.
	take := func(s *sse, version int, moved time.Time) {
		t.Helper()
		for len(seen) == 0 || seen[len(seen)-1] < version {
			f, ok := s.nextEvent()
			if !ok {
				t.Fatalf("the stream ended at %v, want up to %d", seen, version)
			}
			seen = append(seen, decodeFrame(t, f).Seq)
			var e api.Event
			if err := json.Unmarshal([]byte(f.data), &e); err != nil {
				t.Fatal(err)
			}
			frames = append(frames, e)
		}
		slowest = max(slowest, time.Since(moved))
	}
	m := &mover{t: t, tb: onB}
	for round := 0; ; round++ {
		switch round {
		case 6:
			// Hang up and come back, as EventSource does, to the same instance.
			s.close()
			s, _ = openStream(t, url, append(auth(tb.tokens[0]), "Last-Event-ID", strconv.Itoa(seen[len(seen)-1]))...)
		case 12:
			// And once to the other instance, as a load balancer may send it.
			s.close()
			s, _ = openStream(t, c.srv[1].URL+tb.path("/stream"), append(auth(tb.tokens[0]), "Last-Event-ID", strconv.Itoa(seen[len(seen)-1]))...)
		case 18:
			s.close()
			s, _ = openStream(t, url, append(auth(tb.tokens[0]), "Last-Event-ID", strconv.Itoa(seen[len(seen)-1]))...)
		}
		moved := time.Now()
		live := m.play(1)
		take(s, onB.view(-1).Version, moved)
		if !live {
			break
		}
	}
	s.ended()
	log := tb.events(0).Events
	if len(seen) != len(log) {
		t.Fatalf("the stream sent %d events, the log holds %d", len(seen), len(log))
	}
	for i, seq := range seen {
		if seq != i+1 || log[i].Seq != seq {
			t.Fatalf("event %d of the stream is seq %d: not in order, or sent twice", i, seq)
		}
		// The stream redacted as the match stood then, GET /events as it stands now (ended,
		// everything open): the same event, but not the same view of it.
		if frames[i].Type != log[i].Type || !frames[i].At.Equal(log[i].At) {
			t.Fatalf("seq %d streamed as %s at %s, but the log has %s at %s", seq, frames[i].Type, frames[i].At, log[i].Type, log[i].At)
		}
	}
	t.Logf("%d events streamed from instance A for moves on B; slowest from B's answer to A's frame: %v", len(seen), slowest)
	c.auditsClean(tb)
}

// TestInstancesIdempotency: a keyed move retried on the other instance, which holds an older
// cached copy, gets the stored answer and creates no second event; the same key sent to both
// instances at once moves once, and both get the one answer.
func TestInstancesIdempotency(t *testing.T) {
	c := newCluster(t, false)
	tb := c.inst[0].create(seed1, false, "human", "human")
	onA, onB := tb, tb.on(c.inst[1])
	onB.view(-1) // B caches the match now; A's moves leave that copy behind
	key := []string{"Idempotency-Key", "move-1"}
	lm := onA.legal(onA.view(-1).Hand.Turn)
	first := onA.mustMove(lm.Seat, asMove(lm.LegalMoves[0]), key...)
	r := onB.move(lm.Seat, asMove(lm.LegalMoves[0]), key...)
	if r.status != http.StatusOK || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry on B: %d %s %s", r.status, r.header, r.body)
	}
	var again api.MoveResponse
	r.decode(t, &again)
	if jsonOf(t, again.Events) != jsonOf(t, first.Events) || again.Match.Version != first.Match.Version {
		t.Fatalf("the retry on B answered\n%s\nnot the first answer\n%s", jsonOf(t, again), jsonOf(t, first))
	}
	if n := len(c.storedLog(tb.id)); n != first.Match.Version {
		t.Fatalf("after the retry the log holds %d events, want %d", n, first.Match.Version)
	}

	// The same keyed move to both instances at once: one moves, the other answers its result.
	// A moved last, so its reads are current; B's cached copy is still the one before move-1.
	lm = onA.legal(onA.view(-1).Hand.Turn)
	key = []string{"Idempotency-Key", "move-2", "If-Match", strconv.Itoa(lm.Version)}
	var answers [2]*reply
	var wg sync.WaitGroup
	for i, h := range c.inst {
		wg.Go(func() { answers[i] = tb.on(h).move(lm.Seat, asMove(lm.LegalMoves[0]), key...) })
	}
	wg.Wait()
	var got [2]api.MoveResponse
	for i, r := range answers {
		if r.status != http.StatusOK {
			t.Fatalf("instance %d: %d %s", i, r.status, r.body)
		}
		r.decode(t, &got[i])
	}
	if jsonOf(t, got[0]) != jsonOf(t, got[1]) {
		t.Fatalf("the two instances answered the one keyed move differently:\n%s\n%s", jsonOf(t, got[0]), jsonOf(t, got[1]))
	}
	if n := len(c.storedLog(tb.id)); n != got[0].Match.Version {
		t.Fatalf("the log holds %d events, want %d", n, got[0].Match.Version)
	}
	c.auditsClean(tb)
}

// TestInstancesManyClients: 32 clients, the two seats of 16 matches, each reading from and
// moving through either instance in turn, with and without If-Match and Idempotency-Key,
// while both instances follow each other. A client moves only when a read at least as new as
// its own last acknowledged move shows its turn, so every move must succeed. Then every match
// audits clean on both instances and every acknowledged event is in the stored log.
func TestInstancesManyClients(t *testing.T) {
	c := newCluster(t, true)
	const matches, upTo = 16, 60
	tables := make([]*table, matches)
	for i := range tables {
		tables[i] = c.inst[i%2].createMatch(api.CreateMatchRequest{
			Players: []api.PlayerRequest{{Name: "ann", Kind: "human"}, {Name: "bob", Kind: "human"}},
			Target:  new(100),
		})
	}
	acks := make([][]api.Event, matches*2)
	var wg sync.WaitGroup
	for i := range acks {
		wg.Go(func() { acks[i] = c.client(tables[i/2], i%2, i, upTo) })
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	moves := 0
	for i, tb := range tables {
		log := c.storedLog(tb.id)
		for _, e := range append(acks[2*i], acks[2*i+1]...) {
			if e.Seq > len(log) || string(log[e.Seq-1].Type) != e.Type {
				t.Fatalf("match %s: acknowledged event seq %d (%s) is not in the stored log of %d", tb.id, e.Seq, e.Type, len(log))
			}
			moves++
		}
		c.auditsClean(tb)
	}
	t.Logf("%d acknowledged events over %d matches, all stored, all audited clean on both instances", moves, matches)
}

// client plays seat of tb until the match reaches version upTo or its end, each read and each
// move through either instance, and returns the events of its acknowledged moves.
func (c *cluster) client(tb *table, seat, id, upTo int) []api.Event {
	var acked []api.Event
	known := 0
	for step := 0; ; step++ {
		if step > 100_000 {
			c.t.Errorf("client %d: no turn in 100000 reads", id)
			return acked
		}
		at := tb.on(c.inst[(id+step)%2])
		r := at.h.do(http.MethodGet, at.path(""), nil, auth(tb.tokens[seat])...)
		var v api.MatchView
		if r.status != http.StatusOK {
			c.t.Errorf("client %d: view: %d %s", id, r.status, r.body)
			return acked
		}
		r.decode(c.t, &v)
		if v.Version < known {
			continue // this instance has not heard of our last move yet
		}
		if v.Status == "finished" || v.Version >= upTo {
			return acked
		}
		if v.Hand.Turn != seat {
			time.Sleep(time.Millisecond) // the other seat's turn
			continue
		}
		r = at.h.do(http.MethodGet, at.path("/legal-moves"), nil, auth(tb.tokens[seat])...)
		var lm api.LegalMovesResponse
		r.decode(c.t, &lm)
		if r.status != http.StatusOK || lm.Version != v.Version || len(lm.LegalMoves) == 0 {
			c.t.Errorf("client %d: legal moves at version %d: %d %s", id, v.Version, r.status, r.body)
			return acked
		}
		var hdr []string
		if step%2 == 0 {
			hdr = append(hdr, "If-Match", strconv.Itoa(lm.Version))
		}
		if step%3 == 0 {
			hdr = append(hdr, "Idempotency-Key", fmt.Sprintf("c%d-%d", id, known))
		}
		mover := tb.on(c.inst[(id+step/2)%2])
		r = mover.move(seat, asMove(pick(lm.LegalMoves, step)), hdr...)
		if r.status != http.StatusOK {
			c.t.Errorf("client %d: move at version %d: %d %s", id, lm.Version, r.status, r.body)
			return acked
		}
		var res api.MoveResponse
		r.decode(c.t, &res)
		acked = append(acked, res.Events...)
		known = res.Match.Version
	}
}
