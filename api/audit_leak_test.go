package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// TestAuditFailuresHideLiveTiles: the record of a live match, changed in the SQLite file behind
// the store's back, fails its audit; read by seat 0 or a spectator, no failing check's detail
// names a tile of seat 1's hand, its draws or the boneyard. The record is changed where the
// hidden tiles are: seat 1's draw (with the chain re-hashed, and without) and seat 1's deal.
func TestAuditFailuresHideLiveTiles(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers())
	path := h.Path
	tp := newTamperer(t, path)
	type tamper func(t *testing.T, id string, deal int, draw int, d domain.HandStarted)
	hidden := func(d domain.HandStarted) domain.Tile { return d.Boneyard[len(d.Boneyard)-1] } // nobody has drawn it yet
	setDeal := func(t *testing.T, id string, seq int, d domain.HandStarted) {
		_, data := tp.row(id, seq)
		data = editJSON(t, data, "hands", [][]string{domain.TileNames(d.Hands[0]), domain.TileNames(d.Hands[1])})
		tp.setRow(id, seq, "hand.started", editJSON(t, data, "boneyard", domain.TileNames(d.Boneyard)))
	}
	cases := []struct {
		name   string
		tamper tamper
	}{
		{"seat 1's draw changed, chain re-hashed", func(t *testing.T, id string, _, draw int, d domain.HandStarted) {
			_, data := tp.row(id, draw)
			tp.setRow(id, draw, "tile.drawn", editJSON(t, data, "tile", hidden(d).String()))
			tp.rehash(id, draw)
		}},
		{"seat 1's draw changed", func(t *testing.T, id string, _, draw int, d domain.HandStarted) {
			_, data := tp.row(id, draw)
			tp.setRow(id, draw, "tile.drawn", editJSON(t, data, "tile", hidden(d).String()))
		}},
		{"seat 1 dealt a tile twice", func(t *testing.T, id string, deal, _ int, d domain.HandStarted) {
			d.Hands[1][1] = d.Hands[1][0]
			setDeal(t, id, deal, d)
			tp.rehash(id, deal)
		}},
		{"seat 1's tiles swapped with the boneyard's", func(t *testing.T, id string, deal, _ int, d domain.HandStarted) {
			for i := range d.Hands[1] {
				j := len(d.Boneyard) - 1 - i
				d.Hands[1][i], d.Boneyard[j] = d.Boneyard[j], d.Hands[1][i]
			}
			setDeal(t, id, deal, d)
			tp.rehash(id, deal)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tb := h.create(seed1, false, "human", "human")
			deal, dealt, draw := untilSeat1Draws(t, tb)
			o := newOracle(t, tb) // what each reader may know, judged from the untouched record
			if draw == 0 || o.current != 1 {
				t.Fatalf("seat 1 did not draw in hand 1 (draw at %d, hand %d)", draw, o.current)
			}
			tc.tamper(t, tb.id, deal, draw, dealt)
			for _, who := range []int{0, -1} {
				r := tb.fetch("/audit", who, nil)
				var rep api.AuditReport
				if err := json.Unmarshal(r.body, &rep); err != nil || rep.OK {
					t.Fatalf("the audit passes a changed record: %s", r.body)
				}
				o.judgeJSON(who, "audit of a changed record", r.body)
			}
			if r := h.do(http.MethodGet, tb.path("/audit"), nil, auth(tb.tokens[1])...); r.status != 200 {
				t.Fatalf("seat 1's audit: %d %s", r.status, r.body)
			}
		})
	}
}

// untilSeat1Draws plays until seat 1 has drawn, so that its hand and the boneyard hold tiles
// the others may not know. It returns the latest deal (seq and data) and the seq of seat 1's
// first draw, 0 if the match ended before it.
func untilSeat1Draws(t *testing.T, tb *table) (deal int, dealt domain.HandStarted, draw int) {
	t.Helper()
	m := &mover{t: t, tb: tb}
	for draw == 0 && m.play(1) {
		for _, e := range tb.fullLog() {
			switch d := e.Data.(type) {
			case domain.HandStarted:
				deal, dealt = e.Seq, d
			case domain.TileDrawn:
				if d.Seat == 1 && draw == 0 {
					draw = e.Seq
				}
			}
		}
	}
	return deal, dealt, draw
}
