package api_test

import (
	"context"
	"net/http"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// table is a match created over HTTP, with its seats' tokens.
type table struct {
	h      *harness
	id     string
	tokens map[int]string
}

// create makes a match of the given players ("human" or a bot name).
func (h *harness) create(seed string, partnerships bool, players ...string) *table {
	h.t.Helper()
	req := api.CreateMatchRequest{Partnerships: partnerships, Seed: seed}
	for i, p := range players {
		pr := api.PlayerRequest{Name: "p" + string(rune('0'+i)), Kind: "human"}
		if p != "human" {
			pr.Kind, pr.Bot = "bot", p
		}
		req.Players = append(req.Players, pr)
	}
	return h.createMatch(req)
}

// createMatch makes the match req asks for.
func (h *harness) createMatch(req api.CreateMatchRequest) *table {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/v1/matches", req)
	if r.status != http.StatusCreated {
		h.t.Fatalf("create: %d %s", r.status, r.body)
	}
	var out api.CreateMatchResponse
	r.decode(h.t, &out)
	if loc := r.header.Get("Location"); loc != "/api/v1/matches/"+out.Match.ID {
		h.t.Fatalf("Location %q", loc)
	}
	tb := &table{h: h, id: out.Match.ID, tokens: map[int]string{}}
	for _, tk := range out.Tokens {
		tb.tokens[tk.Seat] = tk.Token
	}
	tb.settle() // a paced bot may lead
	return tb
}

// settle waits until no paced bot's turn is being played: a move's answer does not wait for
// them (docs/api-matches.md, "Timing").
func (tb *table) settle() {
	tb.h.t.Helper()
	if err := tb.h.svc.WaitPaced(context.Background()); err != nil {
		tb.h.t.Fatal(err)
	}
}

func (tb *table) path(suffix string) string { return "/api/v1/matches/" + tb.id + suffix }

// view reads the match as seat sees it (seat < 0: a spectator).
func (tb *table) view(seat int) api.MatchView {
	tb.h.t.Helper()
	var v api.MatchView
	tb.fetch("", seat, &v)
	return v
}

// legal reads seat's legal moves.
func (tb *table) legal(seat int) api.LegalMovesResponse {
	tb.h.t.Helper()
	var out api.LegalMovesResponse
	tb.fetch("/legal-moves", seat, &out)
	return out
}

// fetch reads path as seat (seat < 0: a spectator) and decodes a 200 answer into out.
func (tb *table) fetch(path string, seat int, out any) *reply {
	tb.h.t.Helper()
	var hdr []string
	if seat >= 0 {
		hdr = auth(tb.tokens[seat])
	}
	r := tb.h.do(http.MethodGet, tb.path(path), nil, hdr...)
	if r.status != http.StatusOK {
		tb.h.t.Fatalf("GET %s: %d %s", tb.path(path), r.status, r.body)
	}
	if out != nil {
		r.decode(tb.h.t, out)
	}
	return r
}

// move sends a move for seat and returns the raw reply.
func (tb *table) move(seat int, m api.MoveRequest, hdr ...string) *reply {
	tb.h.t.Helper()
	return tb.h.do(http.MethodPost, tb.path("/moves"), m, append(auth(tb.tokens[seat]), hdr...)...)
}

// mustMove sends a move that must succeed.
func (tb *table) mustMove(seat int, m api.MoveRequest, hdr ...string) api.MoveResponse {
	tb.h.t.Helper()
	r := tb.move(seat, m, hdr...)
	if r.status != http.StatusOK {
		tb.h.t.Fatalf("move %+v by seat %d: %d %s", m, seat, r.status, r.body)
	}
	var out api.MoveResponse
	r.decode(tb.h.t, &out)
	return out
}

// events reads the whole log as seat sees it (seat < 0: a spectator).
func (tb *table) events(seat int) api.EventsResponse {
	tb.h.t.Helper()
	var out api.EventsResponse
	tb.fetch("/events?limit=1000", seat, &out)
	return out
}

// asMove turns a listed legal move into the request that takes it.
func asMove(l api.LegalMove) api.MoveRequest {
	m := api.MoveRequest{Action: l.Action}
	if l.Action == "play" {
		tile, end := l.Tile, l.End
		m.Tile, m.End = &tile, &end
	}
	return m
}

// play is a move request for tile on end ("" leaves the end out).
func play(tile, end string) api.MoveRequest {
	m := api.MoveRequest{Action: "play", Tile: &tile}
	if end != "" {
		m.End = &end
	}
	return m
}

// pick chooses among legal moves deterministically but not always the first, so matches
// visit both ends and different tiles.
func pick(moves []api.LegalMove, turn int) api.LegalMove {
	return moves[(turn*7)%len(moves)]
}

// fullLog is the stored, unredacted log: what the tests judge the API's answers by.
func (tb *table) fullLog() []domain.Event {
	tb.h.t.Helper()
	events, err := tb.h.store.Events(context.Background(), tb.id, 0, 0)
	if err != nil {
		tb.h.t.Fatal(err)
	}
	return events
}

// playOut plays the match to its end through legal-moves, calling each (if not nil) before
// every turn with the seat to move and its legal moves; each reports whether it moved itself.
func (tb *table) playOut(each func(turn, seat int, moves []api.LegalMove) (moved bool)) api.MatchView {
	tb.h.t.Helper()
	for turn := 0; ; turn++ {
		if turn > 5000 {
			tb.h.t.Fatal("the match did not end in 5000 turns")
		}
		tb.settle()
		v := tb.view(-1)
		if v.Status == "finished" {
			return v
		}
		seat := v.Hand.Turn
		lm := tb.legal(seat)
		if len(lm.LegalMoves) == 0 || lm.Version != v.Version {
			tb.h.t.Fatalf("seat %d to move at version %d has legal moves %+v", seat, v.Version, lm)
		}
		if each != nil && each(turn, seat, lm.LegalMoves) {
			continue
		}
		tb.mustMove(seat, asMove(pick(lm.LegalMoves, turn)))
	}
}
