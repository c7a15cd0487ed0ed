package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// TestStreamsSessionLeaksNoSecret: a scripted session with tickets, players' streams and match
// streams opened with tickets (issued for seat tokens and for keys), on SQLite and PostgreSQL,
// with every log line kept (debug and up, every access line). Each key, token and ticket
// appears in exactly the answer that issues it: never in another answer, a header, a stream
// message or a line of the log; no player's stream carries a tile; and while a match is live no
// ticket's stream carries another seat's tiles.
func TestStreamsSessionLeaksNoSecret(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			var logs apitest.SyncBuffer
			ls := newHarness(t, apitest.WithStore(eng.open(t)), apitest.Logs(&logs), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
			h := ls
			type answer struct{ path, text string }
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
				if s == "" {
					t.Fatal("an empty secret")
				}
				secrets[s] = len(answers) - 1
			}
			var streams []*sse
			ada := h.newPlayer("Ada S")
			issued(ada.Key)
			bob := h.newPlayer("Bob S")
			issued(bob.Key)

			// Ada follows by ticket, Bob by key.
			pt := h.playerTicket(ada.Key)
			issued(pt.Ticket)
			as, _ := openPlayerStream(t, ls.Server.URL, "", pt.Ticket)
			bs, _ := openPlayerStream(t, ls.Server.URL, bob.Key, "")
			streams = append(streams, as.sse, bs.sse)

			// Bob challenges Ada, who takes the challenge; each follows the match by a ticket,
			// Bob's issued for his seat's token, Ada's for her key.
			tb, created := h.challenge(bob.Key, ada.Player.ID)
			issued(created.Tokens[0].Token)
			as.expect("challenge", tb.id)
			r := tb.joinWith(1, ada.Key, "")
			var joined api.JoinResponse
			r.decode(t, &joined)
			issued(joined.Token)
			tb.tokens[1] = joined.Token
			bt := h.seatTicket(tb.id, created.Tokens[0].Token)
			issued(bt.Ticket)
			at := h.seatTicket(tb.id, ada.Key)
			issued(at.Ticket)
			bm, _ := openStream(t, ls.Server.URL+tb.path("/stream?ticket="+url.QueryEscape(bt.Ticket)))
			am, _ := openStream(t, ls.Server.URL+tb.path("/stream?view=1&ticket="+url.QueryEscape(at.Ticket)))
			streams = append(streams, bm, am)
			m := &mover{t: t, tb: tb}
			m.play(30)
			version := tb.view(-1).Version
			for seat, s := range map[int]*sse{0: bm, 1: am} {
				hidesOtherSeat(t, s, seat, version)
			}

			// A seeded match of anonymous seats, each followed by a ticket of its token: each
			// stream is exactly what the seed deals its seat.
			r = h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Seed: seed1, Target: new(1000), Players: []api.PlayerRequest{
				{Name: "Cy", Kind: "human"}, {Name: "Di", Kind: "human"}}})
			var seeded api.CreateMatchResponse
			r.decode(t, &seeded)
			st := &table{h: h, id: seeded.Match.ID, tokens: map[int]string{}}
			for _, tk := range seeded.Tokens {
				issued(tk.Token)
				st.tokens[tk.Seat] = tk.Token
			}
			var seatStreams []*sse
			for seat := range 2 {
				tk := h.seatTicket(st.id, st.tokens[seat])
				issued(tk.Ticket)
				s, _ := openStream(t, ls.Server.URL+st.path("/stream?ticket="+url.QueryEscape(tk.Ticket)))
				seatStreams = append(seatStreams, s)
			}
			streams = append(streams, seatStreams...)
			if !(&mover{t: t, tb: st}).play(60) {
				t.Fatal("the seeded match ended: raise its target")
			}
			seed, err := domain.ParseSeed(seed1)
			if err != nil {
				t.Fatal(err)
			}
			v := st.view(-1).Version
			for seat, s := range seatStreams {
				checkSeatStream(t, s, seat, v, seed)
			}

			// The players' streams saw the turns; then a rotation ends Ada's.
			rot := h.do(http.MethodPost, "/api/v1/players/me/key", nil, auth(ada.Key)...)
			var rk api.PlayerKeyResponse
			rot.decode(t, &rk)
			issued(rk.Key)
			untilEnd(t, as.sse)
			h.do(http.MethodGet, "/api/v1/players/"+ada.Player.ID+"/matches?turn=me", nil, auth(rk.Key)...)
			h.do(http.MethodGet, "/api/v1/players?name=ada%20s", nil)
			tb.events(-1)

			for _, s := range streams {
				s.close()
			}
			lines := logs.String()
			if !strings.Contains(lines, "/api/v1/players/me/stream") || !strings.Contains(lines, "/stream") {
				t.Fatal("the log has no access lines of the streams: the test would prove nothing")
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
				for i, s := range streams {
					s.mu.Lock()
					raw := s.raw.String()
					s.mu.Unlock()
					if strings.Contains(raw, secret) {
						t.Fatalf("a secret issued by %s is in stream %d", answers[at].path, i)
					}
				}
			}
			for _, s := range []*sse{as.sse, bs.sse} {
				s.mu.Lock()
				raw := s.raw.String()
				s.mu.Unlock()
				for _, bad := range []string{`"tiles"`, `"hands"`, `"tile"`, `"hand"`, `"legal_moves"`} {
					if strings.Contains(raw, bad) {
						t.Fatalf("a player's stream carries %s: %s", bad, raw)
					}
				}
			}
		})
	}
}

// hidesOtherSeat reads seat me's stream of a live two-seat match up to version and fails at
// the first frame that shows the other seat's hand or draws, or a view of another seat.
func hidesOtherSeat(t *testing.T, s *sse, me, version int) {
	t.Helper()
	other := 1 - me
	for seq := 1; seq <= version; seq++ {
		f, ok := s.nextEvent()
		if !ok {
			t.Fatalf("seat %d's stream ended at seq %d", me, seq)
		}
		var withView struct {
			Match *api.MatchView `json:"match"`
		}
		if err := json.Unmarshal([]byte(f.data), &withView); err != nil {
			t.Fatal(err)
		}
		if withView.Match != nil && (withView.Match.You == nil || withView.Match.You.Seat != me) {
			t.Fatalf("seat %d's stream carries another view: %s", me, f.data)
		}
		e := decodeFrame(t, f)
		switch d := e.Data.(type) {
		case domain.HandStarted:
			if d.Hands[other] != nil || d.Hands[me] == nil || d.Boneyard != nil {
				t.Fatalf("seat %d sees hand.started %s", me, f.data)
			}
		case domain.TileDrawn:
			if d.Seat == other && d.Tile != nil {
				t.Fatalf("seat %d's stream shows seat %d's draw: %s", me, other, f.data)
			}
		case domain.MatchEnded:
			t.Fatal("the match ended: raise its target")
		}
	}
}
