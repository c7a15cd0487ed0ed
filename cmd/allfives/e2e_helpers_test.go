package main

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// e2eClient talks to a running server's API at base, as any client would.
type e2eClient struct {
	t    *testing.T
	base string
}

// call sends a request with key (a player key or a seat token; none when "") and decodes a
// 2XX answer into out (tournament_test.go's call).
func (c e2eClient) call(method, path, key, body string, out any) []byte {
	c.t.Helper()
	return call(c.t, method, c.base+path, key, body, out)
}

// player creates a player and answers its id and key.
func (c e2eClient) player(name string) (string, string) {
	c.t.Helper()
	var out api.CreatePlayerResponse
	c.call(http.MethodPost, "/players", "", jsonOf(api.CreatePlayerRequest{Name: name}), &out)
	return out.Player.ID, out.Key
}

// view reads match id as a spectator.
func (c e2eClient) view(id string) api.MatchView {
	c.t.Helper()
	var v api.MatchView
	c.call(http.MethodGet, "/matches/"+id, "", "", &v)
	return v
}

// waitEnded waits until match id is no longer waiting or being played.
func (c e2eClient) waitEnded(id string) api.MatchView {
	c.t.Helper()
	for range 6000 {
		if v := c.view(id); v.Status != "in_progress" && v.Status != "waiting" {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("match %s never ended", id)
	return api.MatchView{}
}

// playOut plays match id to its end, each seat to move taking a legal move (a varied one)
// with its credential in creds, and requires it to finish.
func (c e2eClient) playOut(id string, creds map[int]string) {
	c.t.Helper()
	for turn := 0; turn < 5000; turn++ {
		v := c.view(id)
		if v.Status != "in_progress" {
			if v.Status != "finished" {
				c.t.Fatalf("match %s ended %s", id, v.Status)
			}
			return
		}
		cred, ok := creds[*v.Turn]
		if !ok {
			c.t.Fatalf("match %s: seat %d is to move and the test holds no credential for it", id, *v.Turn)
		}
		var lm api.LegalMovesResponse
		c.call(http.MethodGet, "/matches/"+id+"/legal-moves", cred, "", &lm)
		if lm.Seat != *v.Turn { // a bot moved in between: read the match again
			continue
		}
		mv := lm.LegalMoves[(turn*5)%len(lm.LegalMoves)]
		req := api.MoveRequest{Action: mv.Action}
		if mv.Action == "play" {
			req.Tile, req.End = &mv.Tile, &mv.End
		}
		c.call(http.MethodPost, "/matches/"+id+"/moves", cred, jsonOf(req), nil)
	}
	c.t.Fatalf("match %s did not end in 5000 turns", id)
}

// review asks for the review of finished match id, on the server's own budget, and waits
// until it is done: its view and export then say "review": "done".
func (c e2eClient) review(id string) {
	c.t.Helper()
	c.call(http.MethodPost, "/matches/"+id+"/review", "", "", nil)
	for i := 0; ; i++ {
		v := c.view(id)
		if v.Review == "done" {
			return
		}
		if v.Review == "failed" || i > 12000 {
			c.t.Fatalf("the review of %s is %q", id, v.Review)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// tokens are a created match's seat tokens by seat.
func tokens(created api.CreateMatchResponse) map[int]string {
	out := map[int]string{}
	for _, tok := range created.Tokens {
		out[tok.Seat] = tok.Token
	}
	return out
}

// jsonOf is v's JSON text.
func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
