package api_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// playerCluster is two instances with players on one PostgreSQL database, each following the
// other's appends as serve wires it.
func playerCluster(t *testing.T) [2]*harness {
	t.Helper()
	u := pgtest.URL(t)
	var out [2]*harness
	for i := range out {
		out[i] = newHarness(t, apitest.PostgresAt(u), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
		followStore(t, out[i].Store.(*postgres.Store), out[i].svc)
	}
	return out
}

// TestPlayerStreamAcrossInstances: Ada's stream on instance A hears what is done on instance
// B: a challenge created there, its join, the moves that give her the turn, and the rotation of
// her key, which ends it. A ticket issued on one instance opens a stream on the other, once.
func TestPlayerStreamAcrossInstances(t *testing.T) {
	c := playerCluster(t)
	a, b := c[0], c[1]
	ada, bob := b.newPlayer("Ada I"), b.newPlayer("Bob I")
	ps, _ := openPlayerStream(t, a.Server.URL, ada.Key, "")
	defer ps.close()

	tb, _ := b.challenge(bob.Key, ada.Player.ID)
	if e := ps.expect("challenge", tb.id); e.Seat != 1 {
		t.Fatalf("challenge %+v", e)
	}
	if r := tb.joinWith(1, ada.Key, ""); r.status != http.StatusCreated {
		t.Fatalf("Ada joins on B: %d %s", r.status, r.body)
	}
	ps.expectJoined(tb.id, 1, "Ada I")
	ps.expect("started", tb.id)
	// Bob moves on B until the turn is Ada's, then she moves on B; she hears each of her turns on A.
	creds := map[int]string{0: bob.Key, 1: ada.Key}
	heard := 0
	for turn := 0; turn < 8; turn++ {
		v := tb.view(-1)
		if v.Status != "in_progress" {
			break
		}
		if v.Hand.Turn == 1 {
			ps.expectTurn(tb.id, 1, v.Version)
			heard++
		}
		tb.moveFor(v.Hand.Turn, creds[v.Hand.Turn], turn)
	}
	if heard == 0 {
		t.Fatal("the turn never came to Ada")
	}

	// Tickets: issued on A, used on B, once.
	pt := a.playerTicket(ada.Key)
	other, _ := openPlayerStream(t, b.Server.URL, "", pt.Ticket)
	other.close()
	refusedStream(t, a.Server.URL+"/api/v1/players/me/stream?ticket="+url.QueryEscape(pt.Ticket), http.StatusUnauthorized, "UNAUTHORIZED")
	st := a.seatTicket(tb.id, ada.Key)
	s, r := openStream(t, b.Server.URL+tb.path("/stream?ticket="+url.QueryEscape(st.Ticket)))
	if r != nil {
		t.Fatalf("A's seat ticket on B: %d %s", r.status, r.body)
	}
	s.close()
	refusedStream(t, a.Server.URL+tb.path("/stream?ticket="+url.QueryEscape(st.Ticket)), http.StatusUnauthorized, "UNAUTHORIZED")

	// A rotation on B ends the stream on A.
	if r := b.do(http.MethodPost, "/api/v1/players/me/key", nil, auth(ada.Key)...); r.status != http.StatusOK {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	untilEnd(t, ps.sse)
}
