package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestSeatsBoundToPlayers runs binding seats to players through the real router, on SQLite
// and on PostgreSQL: "me" at create, a challenge that only its player joins, an open seat
// joined with a key, a key standing for its player's seat (and no other), ALREADY_SEATED, and
// the events carrying the player of a bound seat.
func TestSeatsBoundToPlayers(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			t.Run("Challenge", func(t *testing.T) { testChallenge(t, h) })
			t.Run("OpenSeatWithKey", func(t *testing.T) { testOpenSeatWithKey(t, h) })
			t.Run("AlreadySeated", func(t *testing.T) { testAlreadySeated(t, h) })
			t.Run("Refusals", func(t *testing.T) { testBindingRefusals(t, h) })
		})
	}
}

// challenge creates, with creator's key, a match of creator's seat 0 and seat 1 reserved
// for the player with id challenged.
func (h *harness) challenge(creatorKey, challenged string) (*table, api.CreateMatchResponse) {
	h.t.Helper()
	req := api.CreateMatchRequest{Players: []api.PlayerRequest{{Kind: "human", Player: "me"}, {Kind: "human", Player: challenged}}}
	r := h.do(http.MethodPost, "/api/v1/matches", req, auth(creatorKey)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("challenge: %d %s", r.status, r.body)
	}
	var out api.CreateMatchResponse
	r.decode(h.t, &out)
	return &table{h: h, id: out.Match.ID, tokens: map[int]string{0: out.Tokens[0].Token}}, out
}

// joinWith joins seat with key (and a name, which may be empty) and returns the raw reply.
func (tb *table) joinWith(seat int, key, name string) *reply {
	tb.h.t.Helper()
	return tb.h.do(http.MethodPost, tb.path("/seats/"+string(rune('0'+seat))+"/join"), api.JoinRequest{Name: name}, auth(key)...)
}

func testChallenge(t *testing.T, h *harness) {
	ada, bob, cy := h.newPlayer("Ada C"), h.newPlayer("Bob C"), h.newPlayer("Cy C")
	tb, out := h.challenge(ada.Key, bob.Player.ID)
	m := out.Match
	reserved := api.Reservation{ID: bob.Player.ID, Name: "Bob C"}
	if len(out.Tokens) != 1 || out.Tokens[0].Seat != 0 || len(out.Invites) != 0 || m.Status != "waiting" ||
		m.Seats[0].Name != "Ada C" || m.Seats[0].Player != ada.Player.ID || m.Seats[1].Kind != "open" || m.Seats[1].Player != "" ||
		m.Seats[1].ReservedFor == nil || *m.Seats[1].ReservedFor != reserved || len(m.OpenSeats) != 0 {
		t.Fatalf("create answer %+v", out)
	}
	// The log says for whom the seat is kept (docs/api-matches.md, "Consent").
	created := tb.events(-1).Events[0]
	if p := created.Data.Players; p[0].Player != ada.Player.ID || p[1].Player != "" || p[1].Kind != "open" || p[1].ReservedFor == nil || *p[1].ReservedFor != reserved {
		t.Fatalf("match.created players %+v", p)
	}
	// The key stands for the creator's seat, as its token does.
	tb.tokens[0] = ada.Key
	if v := tb.view(0); v.You == nil || v.You.Seat != 0 {
		t.Fatalf("Ada's key reads %+v", v.You)
	}
	// Bob holds no seat yet: his key reads the match he is asked to, as anyone sees it; only
	// he may take seat 1. Cy's key, for a match that keeps nothing for Cy, is refused.
	var asked api.MatchView
	read := h.do(http.MethodGet, tb.path(""), nil, auth(bob.Key)...)
	read.decode(t, &asked)
	if read.status != http.StatusOK || asked.You != nil || asked.Seats[1].ReservedFor == nil {
		t.Fatalf("Bob reads %d %s", read.status, read.body)
	}
	h.do(http.MethodGet, tb.path(""), nil, auth(cy.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.joinWith(1, cy.Key, "").problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.join(1, "Dee", "").problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.joinWith(1, ada.Key, "").problem(t, http.StatusConflict, "ALREADY_SEATED") // she holds seat 0
	r := tb.joinWith(1, bob.Key, "")
	if r.status != http.StatusCreated {
		t.Fatalf("Bob takes his challenge: %d %s", r.status, r.body)
	}
	var j api.JoinResponse
	r.decode(t, &j)
	if j.Seat != 1 || j.Token == "" || j.Match.Status != "in_progress" || j.Match.Seats[1].Name != "Bob C" || j.Match.Seats[1].Player != bob.Player.ID {
		t.Fatalf("join answer %s", r.body)
	}
	ev := tb.events(-1).Events
	if joined := ev[1]; joined.Type != "seat.joined" || joined.Data.Player != bob.Player.ID || joined.Data.Name != "Bob C" {
		t.Fatalf("seat.joined %+v", joined)
	}
	// Seat token and key both work for seat 1; Cy's key works for no seat of it.
	tb.tokens[1] = bob.Key
	if v := tb.view(1); v.You == nil || v.You.Seat != 1 || len(v.You.Tiles) == 0 {
		t.Fatalf("Bob's key reads %+v", v.You)
	}
	h.do(http.MethodGet, tb.path(""), nil, auth(cy.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	h.do(http.MethodGet, tb.path("/legal-moves"), nil, auth(cy.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	// Played to the end with keys alone, the match passes its audit.
	end := tb.playOut(nil)
	if end.Status != "finished" {
		t.Fatalf("status %s", end.Status)
	}
	if rep := tb.audit(-1); !rep.OK {
		t.Fatalf("audit of a match of players: %+v", rep)
	}
}

func testOpenSeatWithKey(t *testing.T, h *harness) {
	eve := h.newPlayer("Eve O")
	tb, invites := createSeated(t, h, true)
	r := tb.joinWith(1, eve.Key, "")
	if r.status != http.StatusCreated {
		t.Fatalf("join with a key: %d %s", r.status, r.body)
	}
	var j api.JoinResponse
	r.decode(t, &j)
	if j.Match.Seats[1].Player != eve.Player.ID || j.Match.Seats[1].Name != "Eve O" {
		t.Fatalf("join answer %s", r.body)
	}
	// The key now stands for seat 1; the seat's token does too.
	tb.tokens[1] = eve.Key
	if v := tb.view(1); v.You == nil || v.You.Seat != 1 {
		t.Fatalf("Eve's key reads %+v", v.You)
	}
	// A player leaving gives the binding up with the seat.
	if r := h.do(http.MethodPost, tb.path("/seats/1/leave"), nil, auth(eve.Key)...); r.status != http.StatusOK {
		t.Fatalf("leave with a key: %d %s", r.status, r.body)
	}
	h.do(http.MethodGet, tb.path(""), nil, auth(eve.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	tb.mustJoin(1, "Fay", invites[1])
	if v := tb.view(-1); v.Seats[1].Player != "" || v.Seats[1].Name != "Fay" {
		t.Fatalf("after an anonymous join: %+v", v.Seats[1])
	}
}

func testAlreadySeated(t *testing.T, h *harness) {
	gus := h.newPlayer("Gus A")
	create := func(players ...api.PlayerRequest) *reply {
		return h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: players}, auth(gus.Key)...)
	}
	me := api.PlayerRequest{Kind: "human", Player: "me"}
	create(me, me).problem(t, http.StatusConflict, "ALREADY_SEATED")
	create(me, api.PlayerRequest{Kind: "human", Player: gus.Player.ID}).problem(t, http.StatusConflict, "ALREADY_SEATED")
	tb, _ := createSeated(t, h, true)
	if r := tb.joinWith(1, gus.Key, ""); r.status != http.StatusCreated {
		t.Fatalf("first join: %d %s", r.status, r.body)
	}
	p := tb.joinWith(2, gus.Key, "").problem(t, http.StatusConflict, "ALREADY_SEATED")
	if !strings.Contains(p.Detail, "seat 1") {
		t.Fatalf("detail %q", p.Detail)
	}
}

func testBindingRefusals(t *testing.T, h *harness) {
	hal := h.newPlayer("Hal R")
	me := api.PlayerRequest{Kind: "human", Player: "me"}
	bot := api.PlayerRequest{Name: "Robo", Kind: "bot", Bot: "random"}
	create := func(hdr []string, players ...api.PlayerRequest) *reply {
		return h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: players}, hdr...)
	}
	create(nil, me, bot).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	anon := h.create("", false, "human", "random")
	create(auth(anon.tokens[0]), me, bot).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	create(auth(hal.Key), api.PlayerRequest{Kind: "human", Player: "0123456789abcdef0123456789abcdef"}, me).problem(t, http.StatusNotFound, "PLAYER_NOT_FOUND")
	create(auth(hal.Key), api.PlayerRequest{Name: "Robo", Kind: "bot", Bot: "random", Player: "me"}, me).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	// A bot's player is stored, but has no key: a challenge to it could never be accepted.
	create(auth(hal.Key), me, api.PlayerRequest{Kind: "human", Player: "bot-greedy"}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	create(auth(hal.Key), me, api.PlayerRequest{Name: "Named", Kind: "human", Player: hal.Player.ID + "x"}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	// A key on an anonymous match is refused like a wrong token; a rotated key everywhere.
	h.do(http.MethodGet, anon.path(""), nil, auth(hal.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: []api.PlayerRequest{me, bot}}, auth(hal.Key)...)
	var out api.CreateMatchResponse
	r.decode(t, &out)
	if r.status != http.StatusCreated || out.Match.Seats[0].Player != hal.Player.ID {
		t.Fatalf("create with me: %d %s", r.status, r.body)
	}
	path := "/api/v1/matches/" + out.Match.ID
	if r := h.do(http.MethodGet, path, nil, auth(hal.Key)...); r.status != http.StatusOK {
		t.Fatalf("read with the key: %d %s", r.status, r.body)
	}
	var rot api.PlayerKeyResponse
	h.do(http.MethodPost, "/api/v1/players/me/key", nil, auth(hal.Key)...).decode(t, &rot)
	h.do(http.MethodGet, path, nil, auth(hal.Key)...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	if r := h.do(http.MethodGet, path, nil, auth(rot.Key)...); r.status != http.StatusOK {
		t.Fatalf("read with the new key: %d %s", r.status, r.body)
	}
}
