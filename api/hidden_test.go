package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// TestNoHiddenInformationLeaks plays a seeded match to its end and, before every turn, reads
// everything seat 0, seat 1 and a spectator can read: state, legal moves, events, and the
// answers to seat 0's moves. While the match is live, no answer may name a tile its reader
// cannot know (one never dealt to, nor drawn by, the reader's seat and not yet played), show
// another hand or the boneyard order, or contain the seed.
func TestNoHiddenInformationLeaks(t *testing.T) {
	h := newHarness(t, options{})
	tb := h.create(seed1, false, "human", "human")
	readers := []int{0, 1, -1}
	after := map[int]int{} // events already checked, per reader: a live log's old events do not change
	reads := 0
	tb.playOut(func(turn, seat int, moves []api.LegalMove) bool {
		log := tb.fullLog()
		for _, who := range readers {
			hdr := []string{}
			if who >= 0 {
				hdr = auth(tb.tokens[who])
			}
			for _, path := range []string{"", fmt.Sprintf("/events?after=%d", after[who]), "/legal-moves"} {
				if path == "/legal-moves" && who < 0 {
					continue
				}
				r := h.do(http.MethodGet, tb.path(path), nil, hdr...)
				checkSecrets(t, who, log, r.body)
				reads++
			}
			after[who] = len(log)
		}
		if seat != 0 {
			return false
		}
		r := tb.move(0, asMove(pick(moves, turn)))
		if r.status != 200 {
			t.Fatalf("move: %d %s", r.status, r.body)
		}
		var res api.MoveResponse
		r.decode(t, &res)
		if res.Match.Status == "in_progress" {
			checkSecrets(t, 0, tb.fullLog(), r.body)
		}
		return true
	})
	// Once finished, everything is open: the seed and every deal.
	body := string(h.do(http.MethodGet, tb.path("/events?limit=1000"), nil).body)
	if !strings.Contains(body, seed1) || !strings.Contains(body, `"boneyard":[`) {
		t.Fatalf("a finished match's log should show the seed and the boneyards")
	}
	t.Logf("%d reads checked", reads)
}

var tileString = regexp.MustCompile(`"([0-6])-([0-6])"`)

// checkSecrets judges one answer to reader (a seat, or -1 for a spectator) against the full
// log of the live match.
func checkSecrets(t *testing.T, reader int, log []domain.Event, body []byte) {
	t.Helper()
	if strings.Contains(string(body), seed1) || strings.Contains(string(body), `"seed"`) {
		t.Fatalf("the seed reached reader %d of a live match: %s", reader, body)
	}
	known := map[domain.Tile]bool{}
	for _, e := range log {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			if reader >= 0 {
				for _, tile := range d.Hands[reader] {
					known[tile] = true
				}
			}
		case domain.TileDrawn:
			if d.Seat == reader {
				known[*d.Tile] = true
			}
		case domain.TilePlayed:
			known[d.Tile] = true
		}
	}
	for _, m := range tileString.FindAllStringSubmatch(string(body), -1) {
		tile := domain.MustTile(m[1] + "-" + m[2])
		if !known[tile] {
			t.Fatalf("reader %d was shown %s, which it cannot know: %s", reader, tile, body)
		}
	}
	checkShapes(t, reader, body)
}

// checkShapes checks the redaction structurally: no boneyard list, other seats' hands null,
// other seats' draws without a tile, and "you" only for the reader's own seat.
func checkShapes(t *testing.T, reader int, body []byte) {
	t.Helper()
	var doc struct {
		Events []api.Event    `json:"events"`
		Match  *api.MatchView `json:"match"`
		You    *api.You       `json:"you"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(body), `"boneyard":[`) {
		t.Fatalf("a boneyard order reached reader %d", reader)
	}
	you := doc.You
	if doc.Match != nil {
		you = doc.Match.You
	}
	if you != nil && you.Seat != reader {
		t.Fatalf("reader %d was shown seat %d's tiles", reader, you.Seat)
	}
	for _, e := range doc.Events {
		for s, hand := range e.Data.Hands {
			if s != reader && hand != nil {
				t.Fatalf("reader %d was shown seat %d's hand in %+v", reader, s, e)
			}
		}
		if e.Type == "tile.drawn" && *e.Data.Seat != reader && e.Data.Tile != "" {
			t.Fatalf("reader %d was shown seat %d's draw: %s", reader, *e.Data.Seat, fmt.Sprint(e.Data))
		}
	}
}
