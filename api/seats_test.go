package api_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// lobby lists the waiting matches of the lobby.
func (h *harness) lobby() []api.HistoryItem {
	h.t.Helper()
	r := h.do(http.MethodGet, "/api/v1/matches?status=waiting", nil)
	if r.status != http.StatusOK {
		h.t.Fatalf("lobby: %d %s", r.status, r.body)
	}
	var out api.HistoryResponse
	r.decode(h.t, &out)
	return out.Matches
}

// join takes seat for name with invite and returns the raw reply.
func (tb *table) join(seat int, name, invite string) *reply {
	tb.h.t.Helper()
	return tb.h.do(http.MethodPost, tb.path("/seats/"+string(rune('0'+seat))+"/join"), api.JoinRequest{Name: name, Invite: invite})
}

// mustJoin joins and keeps the seat's token.
func (tb *table) mustJoin(seat int, name, invite string) api.JoinResponse {
	tb.h.t.Helper()
	r := tb.join(seat, name, invite)
	if r.status != http.StatusCreated {
		tb.h.t.Fatalf("join seat %d: %d %s", seat, r.status, r.body)
	}
	var out api.JoinResponse
	r.decode(tb.h.t, &out)
	if out.Seat != seat || out.Token == "" || out.Match.You == nil || out.Match.You.Seat != seat {
		tb.h.t.Fatalf("join answer %s", r.body)
	}
	tb.tokens[seat] = out.Token
	return out
}

func createSeated(t *testing.T, h *harness, listed bool) (*table, map[int]string) {
	t.Helper()
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Listed: listed, Players: []api.PlayerRequest{
		{Name: "host", Kind: "human"}, {Kind: "open"}, {Kind: "open"},
	}})
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var out api.CreateMatchResponse
	r.decode(t, &out)
	invites := map[int]string{}
	for _, inv := range out.Invites {
		invites[inv.Seat] = inv.Invite
	}
	m := out.Match
	if len(out.Tokens) != 1 || len(invites) != 2 || invites[1] == "" || invites[2] == "" || m.Status != "waiting" ||
		m.Turn != nil || m.Hand != nil || !slices.Equal(m.OpenSeats, []int{1, 2}) || m.Seats[1].Kind != "open" {
		t.Fatalf("create answer %s", r.body)
	}
	return &table{h: h, id: m.ID, tokens: map[int]string{0: out.Tokens[0].Token}}, invites
}

// TestPlayingWithOthers: a listed three-player match with two open seats is found in the lobby,
// one seat taken from the lobby and one with its invite, by "other clients" that hold only
// their own tokens, then played to the end. No token or invite shows in any answer but its
// own, nor in the log.
func TestPlayingWithOthers(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(func(c *api.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}))
	tb, invites := createSeated(t, h, true)
	secrets := []string{tb.tokens[0], invites[1], invites[2]}

	lobby := h.lobby()
	if len(lobby) != 1 || lobby[0].ID != tb.id || !slices.Equal(lobby[0].OpenSeats, []int{1, 2}) || lobby[0].Target != 200 || len(lobby[0].Players) != 3 {
		t.Fatalf("lobby %+v", lobby)
	}
	tb.move(0, api.MoveRequest{Action: "draw"}).problem(t, http.StatusConflict, "MATCH_NOT_STARTED")

	// Another client finds the match in the lobby and takes seat 1 without an invite.
	j1 := tb.mustJoin(1, "Bo", "")
	tb.join(1, "Cy", invites[1]).problem(t, http.StatusConflict, "SEAT_TAKEN")
	if l := h.lobby(); len(l) != 1 || !slices.Equal(l[0].OpenSeats, []int{2}) || j1.Match.Status != "waiting" {
		t.Fatalf("after one join: lobby %+v, status %s", l, j1.Match.Status)
	}
	// A third client was sent seat 2's invite.
	j2 := tb.mustJoin(2, "Cy", invites[2])
	if j2.Match.Status != "in_progress" || j2.Match.Turn == nil || len(j2.Match.You.Tiles) != 5 || len(j2.Match.OpenSeats) != 0 {
		t.Fatalf("after the last join: %+v", j2.Match)
	}
	secrets = append(secrets, j1.Token, j2.Token)
	if l := h.lobby(); len(l) != 0 {
		t.Fatalf("the lobby lists a started match: %+v", l)
	}
	turn := *j2.Match.Turn
	if lm := tb.legal(turn); len(lm.LegalMoves) == 0 {
		t.Fatalf("seat %d to move has no legal moves", turn)
	}

	end := tb.playOut(nil)
	if end.Turn != nil || end.Hand == nil || len(end.Hand.Hands) != 3 || len(end.LegalMoves) != 0 {
		t.Fatalf("final view %+v", end)
	}
	var audit api.AuditReport
	if tb.fetch("/audit", -1, &audit); !audit.OK {
		t.Fatalf("audit %+v", audit)
	}

	// Hidden information: no answer a client can get carries a token or an invite.
	var bodies [][]byte
	for seat := -1; seat < 3; seat++ {
		for _, p := range []string{"", "/events?limit=1000", "/export?format=json", "/export?format=text", "/audit", "/replay?step=2"} {
			bodies = append(bodies, tb.fetch(p, seat, nil).body)
		}
	}
	bodies = append(bodies, h.do(http.MethodGet, "/api/v1/matches", nil).body)
	mu.Lock()
	bodies = append(bodies, logs.Bytes())
	mu.Unlock()
	for _, b := range bodies {
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Fatalf("a secret shows in %.300s", b)
			}
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestAnUnlistedMatchNeedsTheSeatsInvite(t *testing.T) {
	h := newHarness(t)
	tb, invites := createSeated(t, h, false)
	if l := h.lobby(); len(l) != 0 {
		t.Fatalf("the lobby lists an unlisted match: %+v", l)
	}
	tb.join(1, "Bo", "").problem(t, http.StatusForbidden, "INVALID_INVITE")
	tb.join(1, "Bo", invites[2]).problem(t, http.StatusForbidden, "INVALID_INVITE")
	tb.join(1, "Bo", strings.Repeat("A", 22)).problem(t, http.StatusForbidden, "INVALID_INVITE")
	tb.join(7, "Bo", invites[1]).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	tb.join(1, "", invites[1]).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	tb.join(1, "a\nb", invites[1]).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	tb.mustJoin(1, "Bo", invites[1])

	// Leave: only the seat's own token, only before the start.
	leave := func(seat, as int) *reply {
		return h.do(http.MethodPost, tb.path("/seats/"+string(rune('0'+seat))+"/leave"), nil, auth(tb.tokens[as])...)
	}
	leave(1, 0).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	if r := leave(1, 1); r.status != http.StatusOK {
		t.Fatalf("leave: %d %s", r.status, r.body)
	}
	h.do(http.MethodGet, tb.path(""), nil, auth(tb.tokens[1])...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.mustJoin(1, "Bo", invites[1])
	tb.mustJoin(2, "Cy", invites[2])
	leave(2, 2).problem(t, http.StatusConflict, "MATCH_STARTED")
	h.do(http.MethodPost, tb.path("/seats/2/resume"), nil, auth(tb.tokens[2])...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
}

// TestRacingJoins: sixteen clients race for one seat: exactly one gets it, the rest hear
// SEAT_TAKEN, and the log records one seat.joined.
func TestRacingJoins(t *testing.T) {
	h := newHarness(t)
	tb, _ := createSeated(t, h, true)
	const racers = 16
	statuses := make([]int, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			statuses[i] = tb.join(1, "racer", "").status
		})
	}
	wg.Wait()
	created, taken := 0, 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
			taken++
		}
	}
	if created != 1 || taken != racers-1 {
		t.Fatalf("statuses %v: want one 201 and %d 409", statuses, racers-1)
	}
	events, err := h.store.Events(context.Background(), tb.id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	joins := 0
	for _, e := range events {
		if e.Type == domain.TypeSeatJoined {
			joins++
		}
	}
	if joins != 1 {
		t.Fatalf("%d seat.joined events, want 1", joins)
	}
}
