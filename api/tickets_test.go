package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/players"
)

// TestTickets runs the single-use stream tickets through the real router, on SQLite and on
// PostgreSQL: issuing each kind and every refusal, a ticket opening its stream once and only
// its own, expiry, and a stream opened with a ticket ending when its credential does.
func TestTickets(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			ls := newHarness(t, apitest.WithStore(eng.open(t)), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
			t.Run("Issue", func(t *testing.T) { testIssueTickets(t, ls) })
			t.Run("MatchStream", func(t *testing.T) { testTicketMatchStream(t, ls) })
			t.Run("Expired", func(t *testing.T) { testTicketExpired(t, ls) })
			t.Run("SeatChangeEnds", func(t *testing.T) { testTicketSeatChange(t, ls) })
			t.Run("RotatedKeyEnds", func(t *testing.T) { testTicketKeyRotated(t, ls) })
		})
	}
}

func testIssueTickets(t *testing.T, ls *harness) {
	h := ls
	ada := h.newPlayer("Ada T")
	before := time.Now()
	r := h.do(http.MethodPost, "/api/v1/players/me/tickets", nil, auth(ada.Key)...)
	var pt api.TicketResponse
	r.decode(t, &pt)
	if r.status != http.StatusCreated || !players.IsTicket(pt.Ticket) || r.header.Get("Cache-Control") != "no-store" ||
		pt.ExpiresAt.Before(before.Add(59*time.Second)) || pt.ExpiresAt.After(time.Now().Add(61*time.Second)) {
		t.Fatalf("player ticket: %d %s %v", r.status, r.body, r.header)
	}
	if again := h.playerTicket(ada.Key); again.Ticket == pt.Ticket {
		t.Fatal("two tickets are one")
	}
	for _, hdr := range [][]string{nil, auth(ada.Key + "x"), auth("not-a-key"), {"Authorization", "Basic " + ada.Key}} {
		h.do(http.MethodPost, "/api/v1/players/me/tickets", nil, hdr...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	}
	h.do(http.MethodPost, "/api/v1/players/me/tickets?ttl=5", nil, auth(ada.Key)...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")

	tb := h.create("", false, "human", "human")
	other := h.create("", false, "human", "human")
	for seat := range 2 {
		st := h.seatTicket(tb.id, tb.tokens[seat])
		if st.Seat != seat || !players.IsTicket(st.Ticket) || st.Ticket == pt.Ticket {
			t.Fatalf("seat %d's ticket %+v", seat, st)
		}
	}
	bound := h.createMatchWith(ada.Key, api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Name: "B"}}})
	if st := h.seatTicket(bound.id, ada.Key); st.Seat != 0 {
		t.Fatalf("the key's ticket is for seat %d", st.Seat)
	}
	bob := h.newPlayer("Bob T")
	path := "/api/v1/matches/" + tb.id + "/tickets"
	for _, hdr := range [][]string{nil, auth(other.tokens[0]), auth(bob.Key), auth(ada.Key), auth("x"), {"Authorization", "Token " + tb.tokens[0]}} {
		p := h.do(http.MethodPost, path, nil, hdr...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
		if strings.Contains(p.Detail, tb.tokens[0]) || strings.Contains(p.Detail, ada.Key) {
			t.Fatalf("a refusal quotes the credential: %s", p.Detail)
		}
	}
	h.do(http.MethodPost, "/api/v1/matches/0123456789abcdef0123456789abcdef/tickets", nil, auth(tb.tokens[0])...).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
	h.do(http.MethodPost, path+"?seat=1", nil, auth(tb.tokens[0])...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
}

// createMatchWith creates req with Authorization: Bearer key.
func (h *harness) createMatchWith(key string, req api.CreateMatchRequest) *table {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/v1/matches", req, auth(key)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("create: %d %s", r.status, r.body)
	}
	var out api.CreateMatchResponse
	r.decode(h.t, &out)
	tb := &table{h: h, id: out.Match.ID, tokens: map[int]string{}}
	for _, tk := range out.Tokens {
		tb.tokens[tk.Seat] = tk.Token
	}
	return tb
}

// firstView opens match id's stream with ?view=1 and the ticket, and returns the seat the first
// event's view is for (-1: a spectator's).
func firstView(t *testing.T, ls *harness, id, ticket string) int {
	t.Helper()
	s, r := openStream(t, ls.Server.URL+"/api/v1/matches/"+id+"/stream?view=1&ticket="+url.QueryEscape(ticket))
	if r != nil {
		t.Fatalf("the ticket's stream: %d %s", r.status, r.body)
	}
	defer s.close()
	f, ok := s.nextEvent()
	if !ok {
		t.Fatal("the stream ended at once")
	}
	var e api.StreamEvent
	if err := json.Unmarshal([]byte(f.data), &e); err != nil || e.Match == nil {
		t.Fatalf("frame %q: %v", f.data, err)
	}
	if e.Match.You == nil {
		return -1
	}
	return e.Match.You.Seat
}

// refusedStream checks that opening url answers status and code.
func refusedStream(t *testing.T, url string, status int, code string, hdr ...string) {
	t.Helper()
	s, r := openStream(t, url, hdr...)
	if s != nil {
		s.close()
		t.Fatalf("%s opened a stream; want %d %s", url, status, code)
	}
	r.problem(t, status, code)
}

func testTicketMatchStream(t *testing.T, ls *harness) {
	h := ls
	tb := h.create("", false, "human", "human")
	other := h.create("", false, "human", "human")
	base := ls.Server.URL + "/api/v1/matches/" + tb.id + "/stream?ticket="
	st := h.seatTicket(tb.id, tb.tokens[1])
	if seat := firstView(t, ls, tb.id, st.Ticket); seat != 1 {
		t.Fatalf("the ticket of seat 1 streams the view of %d", seat)
	}
	refusedStream(t, base+url.QueryEscape(st.Ticket), http.StatusUnauthorized, "UNAUTHORIZED") // used
	// A ticket of another match, tried here, is refused here and still opens its own.
	of := h.seatTicket(other.id, other.tokens[0])
	refusedStream(t, base+url.QueryEscape(of.Ticket), http.StatusUnauthorized, "UNAUTHORIZED")
	if seat := firstView(t, ls, other.id, of.Ticket); seat != 0 {
		t.Fatalf("the ticket of %s's seat 0 streams the view of %d", other.id, seat)
	}
	ada := h.newPlayer("Ada S")
	pt := h.playerTicket(ada.Key)
	refusedStream(t, base+url.QueryEscape(pt.Ticket), http.StatusUnauthorized, "UNAUTHORIZED") // the player's stream's
	for _, bad := range []string{"", "x", players.TicketPrefix + strings.Repeat("A", 43), tb.tokens[0]} {
		refusedStream(t, base+url.QueryEscape(bad), http.StatusUnauthorized, "UNAUTHORIZED")
	}
	refusedStream(t, base+url.QueryEscape(ada.Key), http.StatusBadRequest, "INVALID_REQUEST") // a key in a URL
	fresh := h.seatTicket(tb.id, tb.tokens[0])
	refusedStream(t, base+url.QueryEscape(fresh.Ticket), http.StatusBadRequest, "INVALID_REQUEST", auth(tb.tokens[0])...)
	refusedStream(t, base+url.QueryEscape(fresh.Ticket)+"&token="+tb.tokens[0], http.StatusBadRequest, "INVALID_REQUEST")
	// Refused for asking twice, the ticket was not spent.
	if seat := firstView(t, ls, tb.id, fresh.Ticket); seat != 0 {
		t.Fatalf("seat 0's ticket streams the view of %d", seat)
	}
	// ?token= still works for old clients.
	s, r := openStream(t, ls.Server.URL+"/api/v1/matches/"+tb.id+"/stream?token="+tb.tokens[0])
	if r != nil {
		t.Fatalf("?token=: %d %s", r.status, r.body)
	}
	s.close()
}

func testTicketExpired(t *testing.T, ls *harness) {
	h := ls
	tb := h.create("", false, "human", "human")
	st := h.seatTicket(tb.id, tb.tokens[0])
	ada := h.newPlayer("Ada E")
	pt := h.playerTicket(ada.Key)
	ls.Clock.Advance(players.TicketTTL + time.Second)
	defer ls.Clock.Advance(-players.TicketTTL - time.Second)
	refusedStream(t, ls.Server.URL+"/api/v1/matches/"+tb.id+"/stream?ticket="+url.QueryEscape(st.Ticket), http.StatusUnauthorized, "UNAUTHORIZED")
	refusedStream(t, ls.Server.URL+"/api/v1/players/me/stream?ticket="+url.QueryEscape(pt.Ticket), http.StatusUnauthorized, "UNAUTHORIZED")
	// A ticket issued now, on the skewed clock, is good.
	if seat := firstView(t, ls, tb.id, h.seatTicket(tb.id, tb.tokens[0]).Ticket); seat != 0 {
		t.Fatalf("a fresh ticket streams the view of %d", seat)
	}
}

// untilEnd reads s until it ends and returns the event types it sent.
func untilEnd(t *testing.T, s *sse) []string {
	t.Helper()
	var types []string
	for {
		f, ok := s.nextEvent()
		if !ok {
			return types
		}
		types = append(types, f.event)
	}
}

func testTicketSeatChange(t *testing.T, ls *harness) {
	h := ls
	tb, bob := seatChange(t, h)
	st := h.seatTicket(tb.id, bob)
	s, r := openStream(t, ls.Server.URL+tb.path("/stream?ticket="+url.QueryEscape(st.Ticket)))
	if r != nil {
		t.Fatalf("Bob's ticket: %d %s", r.status, r.body)
	}
	for range 2 { // match.created, seat.joined: sent while Bob holds the seat
		if _, ok := s.nextEvent(); !ok {
			t.Fatal("Bob's ticket stream ended before he left")
		}
	}
	carol := handOver(t, tb, bob)
	for _, typ := range followedUntilEnd(t, s, carol) {
		if typ != "seat.left" {
			t.Fatalf("Bob's ticket stream sent %s after he left: only his own seat.left may follow", typ)
		}
	}
}

func testTicketKeyRotated(t *testing.T, ls *harness) {
	h := ls
	ada := h.newPlayer("Ada R")
	tb := h.createMatchWith(ada.Key, api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Name: "B"}}})
	st := h.seatTicket(tb.id, ada.Key)
	spare := h.seatTicket(tb.id, ada.Key)
	s, r := openStream(t, ls.Server.URL+tb.path("/stream?ticket="+url.QueryEscape(st.Ticket)))
	if r != nil {
		t.Fatalf("Ada's ticket: %d %s", r.status, r.body)
	}
	if r := h.do(http.MethodPost, "/api/v1/players/me/key", nil, auth(ada.Key)...); r.status != http.StatusOK {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	untilEnd(t, s) // ends at the next heartbeat at the latest, with nothing of the match after
	// A ticket issued with the old key opens nothing now.
	refusedStream(t, ls.Server.URL+tb.path("/stream?ticket="+url.QueryEscape(spare.Ticket)), http.StatusUnauthorized, "UNAUTHORIZED")
}
