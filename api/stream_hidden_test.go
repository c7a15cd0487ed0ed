package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// TestStreamHidesOtherSeatsTiles: while a seeded match is live, each seat's stream (token in
// Authorization for one, in ?token= for the other) carries its own deal and draws, exactly as
// the seed deals them, and nothing of the other seat's hand or draws, nor the boneyard order.
func TestStreamHidesOtherSeatsTiles(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
	srv := h.Server
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Seed: seed1, Target: new(1000), Players: []api.PlayerRequest{
		{Name: "Ada", Kind: "human"}, {Name: "Bo", Kind: "human"},
	}})
	var created api.CreateMatchResponse
	r.decode(t, &created)
	tb := &table{h: h, id: created.Match.ID, tokens: map[int]string{}}
	for _, tk := range created.Tokens {
		tb.tokens[tk.Seat] = tk.Token
	}
	s0, _ := openStream(t, srv.URL+tb.path("/stream"), auth(tb.tokens[0])...)
	s1, _ := openStream(t, srv.URL+tb.path("/stream?token="+tb.tokens[1]))
	streams := []*sse{s0, s1}
	m := &mover{t: t, tb: tb}
	if !m.play(120) {
		t.Fatal("the match ended: raise its target")
	}
	version := tb.view(-1).Version
	seed, err := domain.ParseSeed(seed1)
	if err != nil {
		t.Fatal(err)
	}
	for me, s := range streams {
		checkSeatStream(t, s, me, version, seed)
	}
	// Hidden information survives a reconnect too.
	again, _ := openStream(t, srv.URL+tb.path("/stream?token="+tb.tokens[0]))
	again.nextEvent() // match.created
	if f, _ := again.nextEvent(); !strings.Contains(f.data, `"hands":[[`) || !strings.Contains(f.data, `],null]`) {
		t.Fatalf("seat 0's hand.started on reconnect: %s", f.data)
	}
}

// checkSeatStream reads seat me's stream up to version and fails at the first frame that
// differs from what the seed deals the seat or that shows what the seat may not know.
func checkSeatStream(t *testing.T, s *sse, me, version int, seed domain.Seed) {
	t.Helper()
	other := 1 - me
	var deal domain.Deal
	drawn := 0
	for seq := 1; seq <= version; seq++ {
		f, ok := s.nextEvent()
		if !ok {
			t.Fatalf("seat %d's stream ended at seq %d", me, seq)
		}
		e := decodeFrame(t, f)
		if e.Seq != seq {
			t.Fatalf("seat %d: seq %d, want %d", me, e.Seq, seq)
		}
		switch d := e.Data.(type) {
		case domain.HandStarted:
			deal = domain.DealDeck(domain.Deck(seed, d.Hand, d.Redeals), 2, 7)
			drawn = 0
			if d.Hands[other] != nil || d.Boneyard != nil || d.BoneyardCount != len(deal.Boneyard) ||
				!slices.Equal(sortedTiles(domain.TileNames(d.Hands[me])), sortedTiles(domain.TileNames(deal.Hands[me]))) {
				t.Fatalf("seat %d sees hand.started %s; the seed deals %v", me, f.data, deal)
			}
		case domain.TileDrawn:
			want := deal.Boneyard[drawn]
			drawn++
			switch {
			case d.Seat == me && (d.Tile == nil || *d.Tile != want):
				t.Fatalf("seat %d's own draw streams as %s, the seed gives %s", me, f.data, want)
			case d.Seat == other && d.Tile != nil:
				t.Fatalf("seat %d's stream shows seat %d's draw: %s", me, other, f.data)
			}
		case domain.MatchEnded:
			t.Fatal("the match ended: raise its target")
		}
		if e.Type != domain.TypeTilePlayed && deal.Hands != nil {
			// Only a play shows a tile of the other seat's hand: no other frame names one.
			for _, tile := range deal.Hands[other] {
				if strings.Contains(f.data, `"`+tile.String()+`"`) {
					t.Fatalf("seat %d's stream names %s of seat %d's hand: %s", me, tile, other, f.data)
				}
			}
		}
	}
}
