package guarantees

import (
	"fmt"
	"net/http"

	"github.com/allfives/allfives/api"
)

// matchPath is the path of match id's route suffix.
func matchPath(id, suffix string) string { return "/api/v1/matches/" + id + suffix }

// human is an anonymous human seat; bot a bot's; me the creator's own bound seat; challenge
// a seat reserved for player id.
func human(name string) api.PlayerRequest { return api.PlayerRequest{Name: name, Kind: "human"} }
func bot(name, strategy string) api.PlayerRequest {
	return api.PlayerRequest{Name: name, Kind: "bot", Bot: strategy}
}

var me = api.PlayerRequest{Kind: "human", Player: "me"}

func challenge(p *person) api.PlayerRequest { return api.PlayerRequest{Kind: "human", Player: p.id} }

// create makes a match as c and answers the server's answer.
func (s *suite) create(body api.CreateMatchRequest, c cred) api.CreateMatchResponse {
	s.t.Helper()
	var out api.CreateMatchResponse
	s.must(http.StatusCreated, request{method: http.MethodPost, path: "/api/v1/matches", cred: c, body: body}, &out)
	return out
}

// seatsOf records the tokens a create answered on k, and p as the player of bound seat.
func seatsOf(k *kind, out api.CreateMatchResponse, bound map[int]*person) {
	for _, tok := range out.Tokens {
		k.seats[tok.Seat] = newHolder(tok.Token, bound[tok.Seat])
	}
}

// join takes seat of k's match with c (a key, or none with body's name and invite) and keeps
// the seat's token.
func (s *suite) join(k *kind, seat int, body api.JoinRequest, who *person) {
	s.t.Helper()
	c := cred{role: roleOwnKey}
	if who != nil {
		c = who.asKey(roleOwnKey)
	}
	var out api.JoinResponse
	s.must(http.StatusCreated, request{method: http.MethodPost, path: matchPath(k.match, fmt.Sprintf("/seats/%d/join", seat)), cred: c, body: body}, &out)
	k.seats[seat] = newHolder(out.Token, who)
}

// holderCred is the credential that acts for seat of k: its token, else its player's key.
func holderCred(k *kind, seat int) (cred, bool) {
	h, ok := k.seats[seat]
	switch {
	case !ok:
		return cred{}, false
	case h.token != "" && h.valid():
		return cred{role: roleOwnToken, secret: h.token}, true
	case h.who != nil:
		return h.who.asKey(roleOwnKey), true
	}
	return cred{}, false
}

// view reads k's match as c sees it.
func (s *suite) view(id string, c cred) api.MatchView {
	s.t.Helper()
	var v api.MatchView
	s.must(http.StatusOK, request{method: http.MethodGet, path: matchPath(id, ""), cred: c}, &v)
	return v
}

// step plays one legal move of the seat to move in k's match, chosen by n so that play
// varies; it answers false when the match is not in progress.
func (s *suite) step(k *kind, n int) bool {
	s.t.Helper()
	reader := cred{role: roleNone}
	if c, ok := holderCred(k, k.own); ok {
		reader = c // a sealed match refuses everyone else
	}
	v := s.view(k.match, reader)
	if v.Status != "in_progress" || v.Turn == nil {
		return false
	}
	c, ok := holderCred(k, *v.Turn)
	if !ok {
		s.t.Fatalf("%s: seat %d is to move and the suite holds it not", k.name, *v.Turn)
	}
	var lm api.LegalMovesResponse
	s.must(http.StatusOK, request{method: http.MethodGet, path: matchPath(k.match, "/legal-moves"), cred: c}, &lm)
	mv := lm.LegalMoves[(n*5)%len(lm.LegalMoves)]
	body := api.MoveRequest{Action: mv.Action}
	if mv.Action == "play" {
		body.Tile, body.End = &mv.Tile, &mv.End
	}
	s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(k.match, "/moves"), cred: c, body: body}, nil)
	return true
}

// steps plays n moves of k's match, or fewer when it ends first.
func (s *suite) steps(k *kind, n int) {
	for i := range n {
		if !s.step(k, i) {
			return
		}
	}
}

// playOut plays k's match to its end.
func (s *suite) playOut(k *kind) {
	s.t.Helper()
	for i := range 3000 {
		if !s.step(k, i) {
			return
		}
	}
	s.t.Fatalf("%s: the match did not end in 3000 moves", k.name)
}

// resign resigns seat of k's match with its holder's credential.
func (s *suite) resign(k *kind, seat int) {
	s.t.Helper()
	c, ok := holderCred(k, seat)
	if !ok {
		s.t.Fatalf("%s: no holder of seat %d to resign", k.name, seat)
	}
	s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(k.match, "/resign"), cred: c}, nil)
}
