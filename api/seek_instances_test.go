package api_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// seekCluster is two instances of the server over one PostgreSQL database, each with its own
// store (connection pool) and matcher.
func seekCluster(t *testing.T) ([2]*seekServer, [2]*postgres.Store, string) {
	t.Helper()
	url := pgtest.URL(t)
	var inst [2]*seekServer
	var stores [2]*postgres.Store
	for i := range inst {
		st, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 8})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		stores[i] = st
		inst[i] = newSeekServer(t, st, humansOnly)
	}
	return inst, stores, url
}

// TestSeekInstancesExactlyOnce: 40 seekers, half on each instance, all at once, make 20
// matches, each seeker in exactly one, each match of two seekers bound to their seats.
func TestSeekInstancesExactlyOnce(t *testing.T) {
	inst, _, _ := seekCluster(t)
	const n = 40
	ids, keys := make([]string, n), make([]string, n)
	for i := range n {
		ids[i], keys[i] = inst[i%2].newSeeker(seekName("Seeker", i))
	}
	seekIDs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var out api.SeekResponse
			inst[i%2].do(http.MethodPost, "/api/v1/seeks", keys[i], api.CreateSeekRequest{Format: "2p", Rated: true}).want(t, http.StatusCreated, &out)
			seekIDs[i] = out.Seek.ID
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	seated := map[string][]int{} // match -> seekers
	for i := range n {
		v := inst[(i+1)%2].awaitSeek(keys[i], seekIDs[i]) // read on the other instance
		if v.Status != "matched" {
			t.Fatalf("seeker %d: %+v", i, v)
		}
		seated[*v.Match] = append(seated[*v.Match], i)
		m := inst[i%2].matchView(keys[i], *v.Match)
		if m.Seats[*v.Seat].Player != ids[i] {
			t.Fatalf("seeker %d's seat %d of %s is %+v", i, *v.Seat, *v.Match, m.Seats[*v.Seat])
		}
	}
	if len(seated) != n/2 {
		t.Fatalf("%d matches, want %d: %v", len(seated), n/2, seated)
	}
	for m, who := range seated {
		if len(who) != 2 {
			t.Fatalf("match %s seats seekers %v", m, who)
		}
	}
}

// TestSeekMatcherTakeover: while one instance holds the matcher's lock, the other does not
// pair; when the holder dies (its database session ends, as a crashed process's does), the
// other instance pairs within a few seconds.
func TestSeekMatcherTakeover(t *testing.T) {
	inst, stores, url := seekCluster(t)
	_, ada := inst[1].newSeeker("Ada")
	_, bob := inst[1].newSeeker("Bob")
	// Instance 0's matcher takes the lock and hangs in its pass, as a matcher whose process
	// froze or died mid-pass would.
	inst[0].stop()
	holding, release := make(chan struct{}), make(chan struct{})
	go func() {
		// Instance 1's passes hold the lock now and then: try until it is free.
		for {
			ran, _ := stores[0].Matching(context.Background(), func(context.Context) error {
				close(holding)
				<-release
				return nil
			})
			if ran {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	defer close(release)
	<-holding
	a := inst[1].seek(ada, api.CreateSeekRequest{Format: "2p"})
	b := inst[1].seek(bob, api.CreateSeekRequest{Format: "2p"})
	time.Sleep(300 * time.Millisecond) // many of instance 1's passes: each finds the lock taken
	if v := inst[1].get(ada, a.ID); v.Status != "searching" {
		t.Fatalf("paired while another instance held the matcher: %+v", v)
	}
	// The holder dies: its session ends.
	killed := time.Now()
	admin := openPostgres(t, url)
	// Only the matcher's lock (key 0x7365656b73: classid 0x73, objid 0x65656b73) in this
	// test's own database: other tests share the server.
	var ended int
	if err := admin.DB().QueryRowContext(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND classid = 115 AND objid = 1701145459 AND objsubid = 1
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&ended); err != nil || ended != 1 {
		t.Fatalf("ended %d sessions: %v", ended, err)
	}
	va, vb := inst[1].awaitSeek(ada, a.ID), inst[1].awaitSeek(bob, b.ID)
	took := time.Since(killed)
	if va.Status != "matched" || vb.Status != "matched" || *va.Match != *vb.Match {
		t.Fatalf("after the holder died: %+v %+v", va, vb)
	}
	if took > 5*time.Second {
		t.Fatalf("pairing resumed %s after the holder died, want within a few seconds", took)
	}
	t.Logf("pairing resumed %s after the matcher's holder died", took.Round(time.Millisecond))
}
