package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
)

// puzzleHarness is a server with players, reviews and puzzles on SQLite, limits off, and a
// player whose reviewed matches against the random bot gave puzzles of its own decisions.
type puzzleHarness struct {
	*harness
	ada, bea api.CreatePlayerResponse
	matches  []*table
}

func newPuzzleHarness(t *testing.T) *puzzleHarness {
	h := &puzzleHarness{harness: newHarness(t, apitest.Reviews(nil))}
	h.ada, h.bea = h.newPlayer("Ada"), h.newPlayer("Bea")
	for i := 0; i < 6 && len(h.own(h.ada)) < 2; i++ {
		h.matches = append(h.matches, h.reviewedMatchOf(h.ada, i))
	}
	if len(h.own(h.ada)) == 0 {
		t.Fatal("six reviewed matches of pick's moves gave no puzzle of Ada's own")
	}
	return h
}

// reviewedMatchOf plays a match of p (seat 0, moves chosen by pick) against the random bot to
// 100 and waits for its review, and the puzzles made of it.
func (h *puzzleHarness) reviewedMatchOf(p api.CreatePlayerResponse, i int) *table {
	h.t.Helper()
	target := 100
	seed := fmt.Sprintf("%064x", i+1)
	r := h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Target: &target, Seed: seed, Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Kind: "bot", Bot: "random"},
	}}, auth(p.Key)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("create: %d %s", r.status, r.body)
	}
	var out api.CreateMatchResponse
	r.decode(h.t, &out)
	tb := &table{h: h.harness, id: out.Match.ID, tokens: map[int]string{}}
	for _, tk := range out.Tokens {
		tb.tokens[tk.Seat] = tk.Token
	}
	tb.playOut(nil)
	tb.askReview(http.StatusAccepted)
	waitReviews(h.t, h.Reviews)
	return tb
}

// own lists p's own puzzles with p's key.
func (h *puzzleHarness) own(p api.CreatePlayerResponse) []api.OwnPuzzle {
	h.t.Helper()
	r := h.do(http.MethodGet, "/api/v1/players/"+p.Player.ID+"/puzzles?limit=100", nil, auth(p.Key)...)
	if r.status != http.StatusOK {
		h.t.Fatalf("own puzzles: %d %s", r.status, r.body)
	}
	var out api.PlayerPuzzlesResponse
	strictDecode(h.t, r.body, &out)
	return out.Puzzles
}

// strictDecode decodes body refusing any field out's type does not have.
func strictDecode(t testing.TB, body []byte, out any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
}

// next asks for a puzzle with hdr (a key, or none).
func (h *puzzleHarness) next(hdr ...string) (api.NextPuzzleResponse, *reply) {
	h.t.Helper()
	r := h.do(http.MethodGet, "/api/v1/puzzles/next", nil, hdr...)
	var out api.NextPuzzleResponse
	if r.status == http.StatusOK {
		strictDecode(h.t, r.body, &out)
	}
	return out, r
}

func (h *puzzleHarness) attempt(id string, mv api.PuzzleMove, hdr ...string) api.AttemptResponse {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/v1/puzzles/"+id+"/attempts", api.AttemptRequest{Move: &mv}, hdr...)
	if r.status != http.StatusOK {
		h.t.Fatalf("attempt %s %+v: %d %s", id, mv, r.status, r.body)
	}
	var out api.AttemptResponse
	strictDecode(h.t, r.body, &out)
	return out
}

// TestPuzzleOwnListIsTheOwnersOnly: a player's mistakes are listed with its own key only:
// another player's key is 403 NOT_YOUR_PUZZLES, no key 401; each listed puzzle is a decision
// of the player's own seat, and the player is never offered its own to solve.
func TestPuzzleOwnListIsTheOwnersOnly(t *testing.T) {
	h := newPuzzleHarness(t)
	path := "/api/v1/players/" + h.ada.Player.ID + "/puzzles"
	h.do(http.MethodGet, path, nil, auth(h.bea.Key)...).problem(t, 403, "NOT_YOUR_PUZZLES")
	h.do(http.MethodGet, path, nil).problem(t, 401, "UNAUTHORIZED")
	h.do(http.MethodGet, path, nil, auth("afk_notakey")...).problem(t, 401, "UNAUTHORIZED")
	h.do(http.MethodGet, path+"?limit=0", nil, auth(h.ada.Key)...).problem(t, 400, "INVALID_REQUEST")
	if got := h.own(h.bea); len(got) != 0 {
		t.Fatalf("Bea played nothing and has %d puzzles", len(got))
	}
	for _, p := range h.own(h.ada) {
		if p.Position.Seat != 0 || p.Loss < analysis.PuzzleMinLoss {
			t.Fatalf("Ada's puzzle %s: seat %d loss %g", p.ID, p.Position.Seat, p.Loss)
		}
	}
	// Every puzzle is from Ada's matches: she is offered none, Bea one.
	_, r := h.next(auth(h.ada.Key)...)
	r.problem(t, 404, "NO_PUZZLE")
	if got, r := h.next(auth(h.bea.Key)...); r.status != http.StatusOK || got.Puzzle.ID == "" {
		t.Fatalf("Bea's next: %d %s", r.status, r.body)
	}
}

// TestPuzzlePositionLeaksNoOtherHand: a puzzle's position holds the deciding seat's own
// tiles as they were, and no tile of another hand or of the boneyard outside what was played;
// the answer before an attempt names not the source match.
func TestPuzzlePositionLeaksNoOtherHand(t *testing.T) {
	h := newPuzzleHarness(t)
	logs := map[string][]domain.Event{}
	for _, tb := range h.matches {
		logs[tb.id] = tb.fullLog()
	}
	seen := 0
	for _, own := range h.own(h.ada) {
		hands, boneyard := dealAt(t, logs[own.Source.Match], own.Source.Step)
		pos := own.Position
		if !slices.Equal(sortedTiles(pos.Hand), sortedTiles(hands[pos.Seat])) {
			t.Fatalf("puzzle %s: hand %v, the seat held %v", own.ID, pos.Hand, hands[pos.Seat])
		}
		next, r := h.next(auth(h.bea.Key)...)
		if r.status != http.StatusOK {
			t.Fatalf("next: %d %s", r.status, r.body)
		}
		for _, id := range []string{own.Source.Match} {
			if strings.Contains(string(r.body), id) {
				t.Fatalf("a puzzle before its attempt names its match: %s", r.body)
			}
		}
		hidden := append([]string{}, boneyard...)
		for s, hand := range hands {
			if s != pos.Seat {
				hidden = append(hidden, hand...)
			}
		}
		body, _ := json.Marshal(own.Puzzle)
		for _, tile := range hidden {
			if strings.Contains(string(body), `"`+tile+`"`) || strings.Contains(string(body), `"`+reversed(tile)+`"`) {
				t.Fatalf("puzzle %s shows %s, a tile the seat could not see: %s", own.ID, tile, body)
			}
		}
		seen++
		h.attempt(next.Puzzle.ID, next.Puzzle.LegalMoves[0], auth(h.bea.Key)...)
	}
	if seen == 0 {
		t.Fatal("no puzzle checked")
	}
}

func reversed(tile string) string { return tile[2:] + "-" + tile[:1] }

// dealAt is every hand and the boneyard just before event step of a finished match's log.
func dealAt(t testing.TB, events []domain.Event, step int) ([][]string, []string) {
	t.Helper()
	i := slices.IndexFunc(events, func(e domain.Event) bool { return e.Seq == step })
	m, err := domain.Rebuild("dealAt", events[:i])
	if err != nil {
		t.Fatal(err)
	}
	h := m.View(domain.SeatViewer(0).Opened()).Hand
	hands := make([][]string, len(h.Hands))
	for s, ts := range h.Hands {
		for _, tile := range ts {
			hands[s] = append(hands[s], tile.String())
		}
	}
	var boneyard []string
	for _, tile := range h.BoneyardTiles {
		boneyard = append(boneyard, tile.String())
	}
	return hands, boneyard
}
