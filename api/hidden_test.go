package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

// TestNoHiddenInformationLeaks plays a seeded match to its end and, before every turn, reads
// everything seat 0, seat 1 and a spectator can read: state (with every viewer's ETag), legal
// moves, events; and at checkpoints (the start, after draws, every few turns) the replays of
// several steps, the audit, both exports, the history, the metrics, each reader's stream, and
// moves that must be refused. Seat 0 moves with an Idempotency-Key, retried at once and later,
// and seat 1 tries its keys. While the match is live no answer may name a tile its reader
// cannot know (judged hand by hand against deals the test derives from the seed itself), show
// another hand or the boneyard order, or contain the seed or a token. Once it has ended,
// everything is open.
func TestNoHiddenInformationLeaks(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
	srv := h.Server
	// A target of 150 takes the match through several hands, with draws, in fewer turns.
	tb := h.createMatch(api.CreateMatchRequest{Seed: seed1, Target: new(150), Players: []api.PlayerRequest{{Name: "p0", Kind: "human"}, {Name: "p1", Kind: "human"}}})
	sw := newSweep(t, tb, srv)
	last, checkpoints := -10, 0
	tb.playOut(func(turn, seat int, moves []api.LegalMove) bool {
		o := newOracle(t, tb)
		version := len(o.handAt)
		tags := sw.cheap(o)
		drew := o.log[version-1].Type == domain.TypeTileDrawn
		if turn == 0 || turn-last >= 15 || drew && turn-last >= 6 {
			sw.full(o, version, tags)
			last = turn
			checkpoints++
		}
		if seat != 0 {
			return false
		}
		sw.keyedMove(asMove(pick(moves, turn)), turn)
		return true
	})
	hands, draws := 0, map[int]int{}
	for _, e := range tb.fullLog() {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			hands++
		case domain.TileDrawn:
			draws[d.Seat]++
		}
	}
	if checkpoints < 6 || hands < 2 || draws[0] == 0 || draws[1] == 0 {
		t.Fatalf("too little judged: %d checkpoints, %d hands, draws %v", checkpoints, hands, draws)
	}

	// Once finished, everything is open: the seed, every deal, the draws, every stream's end.
	for _, who := range readers {
		for _, path := range []string{"/events?limit=1000", "/export", "/export?format=text", "/replay?step=2"} {
			body := string(sw.get(who, tb.path(path), http.StatusOK).body)
			if path != "/replay?step=2" && !strings.Contains(body, seed1) {
				t.Fatalf("%s as %d of a finished match lacks the seed", path, who)
			}
			if path == "/replay?step=2" && !strings.Contains(body, `"boneyard_tiles":[`) {
				t.Fatalf("%s as %d of a finished match hides the deal: %s", path, who, body)
			}
		}
		s := sw.streams[who]
		for {
			f, ok := s.nextEvent()
			if !ok {
				t.Fatalf("reader %d's stream ended before match.ended", who)
			}
			if f.event == "match.ended" {
				if !strings.Contains(f.data, seed1) {
					t.Fatalf("match.ended without the seed: %s", f.data)
				}
				break
			}
		}
		s.ended()
	}
	t.Logf("%d reads judged at %d checkpoints over %d hands, draws %v", sw.reads, checkpoints, hands, draws)
}
