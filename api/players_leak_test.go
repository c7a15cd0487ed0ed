package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestPlayersSessionLeaksNoSecret: a scripted session with players, a challenge, a join with
// a key, my matches and rematches, on SQLite and PostgreSQL, with every log line kept (debug
// and up, every access line). Each key, token and invite appears in exactly the answers that
// issue it, never in another answer, a header or a line of the log; and while a match is
// live no answer to one seat shows another seat's tiles.
func TestPlayersSessionLeaksNoSecret(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			var logs apitest.SyncBuffer
			h := newHarness(t, apitest.WithStore(eng.open(t)), apitest.Logs(&logs))
			type answer struct {
				path, text string
			}
			var answers []answer
			h.seen = func(req *http.Request, r *reply) {
				var hdr strings.Builder
				for k, v := range r.header {
					hdr.WriteString(k + ": " + strings.Join(v, ",") + "\n")
				}
				answers = append(answers, answer{req.Method + " " + req.URL.String(), hdr.String() + string(r.body)})
			}
			secrets := map[string]int{} // secret -> the index of the answer that issued it
			issued := func(s string) {
				if s != "" {
					secrets[s] = len(answers) - 1
				}
			}
			ada := h.newPlayer("Ada L")
			issued(ada.Key)
			bob := h.newPlayer("Bob L")
			issued(bob.Key)

			target := 5
			r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{
				{Kind: "human", Player: "me"}, {Kind: "human", Player: bob.Player.ID}}}, auth(ada.Key)...)
			var created api.CreateMatchResponse
			r.decode(t, &created)
			issued(created.Tokens[0].Token)
			tb := &table{h: h, id: created.Match.ID, tokens: map[int]string{0: ada.Key}}
			r = tb.joinWith(1, bob.Key, "")
			var joined api.JoinResponse
			r.decode(t, &joined)
			issued(joined.Token)
			tb.tokens[1] = joined.Token

			// An open seat with an invite, joined with a key.
			open, invites := createSeated(t, h, true)
			issued(open.tokens[0])
			for _, inv := range invites {
				secrets[inv] = len(answers) - 1
			}
			open.joinWith(1, ada.Key, "").decode(t, &joined)
			issued(joined.Token)

			// Live reads by each seat: no other seat's tiles.
			for seat := range 2 {
				v := tb.view(seat)
				other := tb.view(1 - seat)
				body := jsonOf(t, v)
				for _, tile := range other.You.Tiles {
					if strings.Contains(body, `"`+tile+`"`) && !slices.Contains(v.Hand.Line, tile) {
						t.Fatalf("seat %d's view shows seat %d's tile %s: %s", seat, 1-seat, tile, body)
					}
				}
			}
			h.do(http.MethodGet, "/api/v1/players/"+ada.Player.ID+"/matches?turn=me", nil, auth(ada.Key)...)
			h.do(http.MethodGet, "/api/v1/players/"+bob.Player.ID+"/matches", nil)
			tb.playOut(nil)
			for seat := range 2 {
				res := tb.rematch(tb.tokens[seat])
				if res.Token != nil {
					issued(*res.Token)
				}
			}
			tb.events(-1)
			h.do(http.MethodGet, tb.path("/export"), nil, auth(ada.Key)...)
			h.do(http.MethodGet, tb.path("/audit"), nil)

			lines := logs.String()
			if !strings.Contains(lines, "/api/v1/players") {
				t.Fatal("the log has no access lines: the test would prove nothing")
			}
			for secret, at := range secrets {
				if strings.Contains(lines, secret) {
					t.Fatalf("a secret issued by %s is in the log", answers[at].path)
				}
				for i, a := range answers {
					if i != at && strings.Contains(a.text, secret) {
						t.Fatalf("a secret issued by %s is in the answer to %s", answers[at].path, a.path)
					}
				}
			}
		})
	}
}
