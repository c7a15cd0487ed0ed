package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// tracker follows a finished match's full log the way a reader of the events would, to judge
// each replayed view by.
type tracker struct {
	sideOf   []int
	scores   []int
	hand     int
	hands    [][]string
	boneyard []string
	line     int
	total    int
}

func newTracker(created domain.MatchCreated) *tracker {
	table, err := domain.NewTable(len(created.Players), created.Partnerships)
	if err != nil {
		panic(err)
	}
	tr := &tracker{scores: make([]int, table.Sides())}
	for s := range created.Players {
		tr.sideOf = append(tr.sideOf, table.SideOf(s))
	}
	return tr
}

func (tr *tracker) apply(e domain.Event) {
	switch d := e.Data.(type) {
	case domain.HandStarted:
		tr.hand, tr.line, tr.total = d.Hand, 0, 0
		tr.hands = nil
		for _, h := range d.Hands {
			tr.hands = append(tr.hands, domain.TileNames(h))
		}
		tr.boneyard = domain.TileNames(d.Boneyard)
	case domain.TilePlayed:
		tr.hands[d.Seat] = slices.DeleteFunc(tr.hands[d.Seat], func(n string) bool { return n == d.Tile.String() })
		tr.line++
		tr.total = d.Total
		tr.scores[tr.sideOf[d.Seat]] += d.Points
	case domain.TileDrawn:
		tr.hands[d.Seat] = append(tr.hands[d.Seat], tr.boneyard[0])
		tr.boneyard = tr.boneyard[1:]
	case domain.HandEnded:
		tr.scores = slices.Clone(d.Scores)
	case domain.MatchEnded:
		tr.scores = slices.Clone(d.Scores)
	}
}

// TestReplayEveryStep replays a finished match at every step over HTTP: each step's event is
// the log's, and its view agrees with the events so far (scores, hand, line, count, every
// seat's tiles and the boneyard, all open since the match has ended); the last step is the
// final state.
func TestReplayEveryStep(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "greedy", "random")
	final := tb.playOut(nil)
	full := tb.fullLog()
	var export api.ExportResponse
	tb.fetch("/export", -1, &export)
	if len(export.Events) != len(full) {
		t.Fatalf("export has %d events, the store %d", len(export.Events), len(full))
	}
	tr := newTracker(full[0].Data.(domain.MatchCreated))
	for step := 1; step <= len(full); step++ {
		tr.apply(full[step-1])
		seat := step%2 - 1 // a spectator and the human seat in turn: a finished match is open to all
		var r api.ReplayResponse
		tb.fetch(fmt.Sprintf("/replay?step=%d", step), seat, &r)
		if r.Step != step || r.Match.Version != step || jsonOf(t, r.Event) != jsonOf(t, export.Events[step-1].Event) {
			t.Fatalf("step %d: step %d, version %d, event %s, want %s", step, r.Step, r.Match.Version, jsonOf(t, r.Event), jsonOf(t, export.Events[step-1].Event))
		}
		if !slices.Equal(r.Match.Scores, tr.scores) {
			t.Fatalf("step %d (%s): scores %v, the events give %v", step, r.Event.Type, r.Match.Scores, tr.scores)
		}
		if (seat >= 0) != (r.Match.You != nil) {
			t.Fatalf("step %d as seat %d: you %+v", step, seat, r.Match.You)
		}
		hv := r.Match.Hand
		switch {
		case step == len(full):
			if hv == nil || len(hv.Hands) != len(r.Match.Seats) || r.Match.Turn != nil || r.Match.Status != "finished" {
				t.Fatalf("last step: status %s, hand %+v", r.Match.Status, hv)
			}
			continue
		case tr.hand == 0:
			continue // before the first deal
		case hv == nil:
			t.Fatalf("step %d (%s): no hand in a live state", step, r.Event.Type)
		}
		if r.Event.Type == "hand.ended" {
			continue // between hands: the scores above are what the step says
		}
		if hv.Number != tr.hand || len(hv.Line) != tr.line || hv.Total != tr.total || hv.Boneyard != len(tr.boneyard) {
			t.Fatalf("step %d (%s): hand %d, line %v, total %d, boneyard %d; the events give hand %d, %d tiles, total %d, boneyard %d",
				step, r.Event.Type, hv.Number, hv.Line, hv.Total, hv.Boneyard, tr.hand, tr.line, tr.total, len(tr.boneyard))
		}
		if r.Event.Type == "tile.played" && hv.Total != *r.Event.Data.Total {
			t.Fatalf("step %d: total %d, the play says %d", step, hv.Total, *r.Event.Data.Total)
		}
		if !slices.Equal(hv.BoneyardTiles, tr.boneyard) && len(tr.boneyard) > 0 {
			t.Fatalf("step %d: boneyard %v, the events give %v", step, hv.BoneyardTiles, tr.boneyard)
		}
		if len(hv.Hands) != len(tr.hands) {
			t.Fatalf("step %d: %d hands shown, want %d", step, len(hv.Hands), len(tr.hands))
		}
		for s := range tr.hands {
			if !slices.Equal(sortedTiles(hv.Hands[s]), sortedTiles(tr.hands[s])) || r.Match.Seats[s].Tiles != len(tr.hands[s]) {
				t.Fatalf("step %d: seat %d holds %v (%d tiles), the events give %v", step, s, hv.Hands[s], r.Match.Seats[s].Tiles, tr.hands[s])
			}
		}
	}
	var at api.ReplayResponse
	tb.fetch(fmt.Sprintf("/replay?step=%d", len(full)), -1, &at)
	if jsonOf(t, at.Match) != jsonOf(t, final) {
		t.Fatalf("the last step's view\n%s\nis not the final state\n%s", jsonOf(t, at.Match), jsonOf(t, final))
	}
}

// TestReplayLiveAndBadSteps: a live match replays as the caller may see it now (a seat its
// own tiles, nobody the other hands), and a missing, malformed or out-of-range step is 400.
func TestReplayLiveAndBadSteps(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	tb.mustMove(0, play("5-5", ""))
	version := tb.view(-1).Version
	for step := 1; step <= version; step++ {
		for _, seat := range []int{-1, 0, 1} {
			var r api.ReplayResponse
			tb.fetch(fmt.Sprintf("/replay?step=%d", step), seat, &r)
			if hv := r.Match.Hand; hv != nil && (hv.Hands != nil || hv.BoneyardTiles != nil) {
				t.Fatalf("step %d as seat %d shows hidden tiles: %+v", step, seat, hv)
			}
			if (seat >= 0) != (r.Match.You != nil) || (seat >= 0 && r.Match.You.Seat != seat) {
				t.Fatalf("step %d as seat %d: you %+v", step, seat, r.Match.You)
			}
			if r.Event.Type == "hand.started" {
				for s, hand := range r.Event.Data.Hands {
					if (hand != nil) != (s == seat) || r.Event.Data.Boneyard != nil {
						t.Fatalf("step %d as seat %d: hand.started shows %v, boneyard %v", step, seat, r.Event.Data.Hands, r.Event.Data.Boneyard)
					}
				}
			}
		}
	}
	for _, q := range []string{"", "?step=", "?step=0", "?step=-1", "?step=x", "?step=1.5", fmt.Sprintf("?step=%d", version+1), "?step=1&step=2", "?step=1&at=2"} {
		tb.h.do(http.MethodGet, tb.path("/replay"+q), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
	h.do(http.MethodGet, "/api/v1/matches/nope/replay?step=1", nil).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
	tb.h.do(http.MethodGet, tb.path("/replay?step=1"), nil, auth("not-a-token")...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
}
