package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
)

// TestTheLeadOfSeed1 pins the README's walkthrough: seat 0 must lead 5-5, which scores 10, and
// every other way to open is refused with the rule it breaks.
func TestTheLeadOfSeed1(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	you := tb.view(0).You
	want := []string{"2-3", "4-4", "4-5", "2-4", "2-5", "0-0", "5-5"}
	if you == nil || !slices.Equal(sorted(you.Tiles), sorted(want)) {
		t.Fatalf("seat 0 holds %+v, want %v", you, want)
	}
	tb.move(1, play("5-5", "")).problem(t, 409, "NOT_YOUR_TURN")
	tb.move(0, play("2-3", "")).problem(t, 422, "MUST_LEAD_DOUBLE")
	tb.move(0, play("6-6", "")).problem(t, 422, "TILE_NOT_IN_HAND")
	tb.move(0, api.MoveRequest{Action: "draw"}).problem(t, 422, "MUST_PLAY")
	tb.move(0, api.MoveRequest{Action: "pass"}).problem(t, 422, "MUST_PLAY")
	res := tb.mustMove(0, play("5-5", ""))
	if len(res.Events) != 1 || res.Events[0].Type != "tile.played" || *res.Events[0].Data.Points != 10 || res.Match.Scores[0] != 10 {
		t.Fatalf("the lead of 5-5: %+v, scores %v", res.Events, res.Match.Scores)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestRuleErrorsInPlay plays seeded matches and, the first time each situation arises, makes
// the illegal move that situation invites and checks its code: END_REQUIRED for a tile that
// fits both ends, TILE_DOES_NOT_FIT, MUST_DRAW, MUST_PASS, MUST_PLAY; also that a tile fitting
// one end needs no end, and that a finished match refuses moves.
func TestRuleErrorsInPlay(t *testing.T) {
	h := newHarness(t)
	seen := map[string]bool{}
	for m := 0; m < 20 && len(seen) < 7; m++ {
		tb := h.create(fmt.Sprintf("%064x", m+1), false, "human", "human")
		tb.playOut(func(_, seat int, moves []api.LegalMove) bool { return probe(t, tb, seat, moves, seen) })
		tb.move(0, api.MoveRequest{Action: "pass"}).problem(t, 409, "MATCH_FINISHED")
		seen["MATCH_FINISHED"] = true
		if lm := tb.legal(0); len(lm.LegalMoves) != 0 {
			t.Fatalf("legal moves after the end: %+v", lm)
		}
	}
	for _, want := range []string{"END_REQUIRED", "TILE_DOES_NOT_FIT", "MUST_DRAW", "MUST_PASS", "MUST_PLAY", "end inferred", "MATCH_FINISHED"} {
		if !seen[want] {
			t.Errorf("no match of the run showed %s", want)
		}
	}
}

// probe tries, once per situation, the illegal move the position invites, and reports
// whether it moved: only "end inferred" does, playing a legal move without naming its end.
func probe(t *testing.T, tb *table, seat int, moves []api.LegalMove, seen map[string]bool) bool {
	t.Helper()
	once := func(code string, status int, m api.MoveRequest) {
		if !seen[code] {
			tb.move(seat, m).problem(t, status, code)
			seen[code] = true
		}
	}
	plays := map[string][]string{} // tile -> the ends it fits
	for _, m := range moves {
		if m.Action == "play" {
			plays[m.Tile] = append(plays[m.Tile], m.End)
		}
	}
	hand, leading := tb.view(seat).You.Tiles, len(tb.view(-1).Hand.Line) == 0
	switch moves[0].Action {
	case "draw":
		once("MUST_DRAW", 422, api.MoveRequest{Action: "pass"})
		once("TILE_DOES_NOT_FIT", 422, play(hand[0], "left"))
		return false
	case "pass":
		once("MUST_PASS", 422, api.MoveRequest{Action: "draw"})
		return false
	}
	once("MUST_PLAY", 422, api.MoveRequest{Action: "draw"})
	if leading {
		return false
	}
	for _, tile := range hand {
		switch ends := plays[tile]; len(ends) {
		case 0:
			once("TILE_DOES_NOT_FIT", 422, play(tile, "right"))
		case 2:
			once("END_REQUIRED", 422, play(tile, ""))
		case 1:
			if seen["end inferred"] {
				continue
			}
			seen["end inferred"] = true
			res := tb.mustMove(seat, play(tile, ""))
			if e := res.Events[0]; e.Data.Tile != tile || e.Data.End != ends[0] {
				t.Fatalf("%s without an end was played as %+v, want the %s end", tile, e.Data, ends[0])
			}
			return true
		}
	}
	return false
}

// TestRetryWithIdempotencyKey: the same key and body get the first answer again and add no
// event; the same key with another body is refused; another seat may use the same key.
func TestRetryWithIdempotencyKey(t *testing.T) {
	h := newHarness(t)
	tb := h.create(seed1, false, "human", "human")
	key := []string{"Idempotency-Key", "lead-1"}
	first := tb.move(0, play("5-5", ""), key...)
	again := tb.move(0, play("5-5", ""), key...)
	if first.status != 200 || again.status != 200 || string(first.body) != string(again.body) {
		t.Fatalf("retry answered differently:\n%d %s\n%d %s", first.status, first.body, again.status, again.body)
	}
	if again.header.Get("Idempotent-Replayed") != "true" || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("Idempotent-Replayed: first %q, retry %q", first.header.Get("Idempotent-Replayed"), again.header.Get("Idempotent-Replayed"))
	}
	if n := len(tb.fullLog()); n != 3 {
		t.Fatalf("the log has %d events after a move and its retry, want 3", n)
	}
	tb.move(0, api.MoveRequest{Action: "draw"}, key...).problem(t, 422, "IDEMPOTENCY_KEY_REUSED")
	// Keys are per seat: seat 1 moves with seat 0's key, and its retry replays its own answer.
	reply := asMove(tb.legal(1).LegalMoves[0])
	moved := tb.move(1, reply, key...)
	if moved.status != 200 || moved.header.Get("Idempotent-Replayed") != "" || len(tb.fullLog()) <= 3 {
		t.Fatalf("seat 1 with seat 0's key: %d %s", moved.status, moved.body)
	}
	if again := tb.move(1, reply, key...); string(again.body) != string(moved.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("seat 1's retry answered %s", again.body)
	}
	// A retry still gets the first answer after the match has moved on.
	if late := tb.move(0, play("5-5", ""), key...); string(late.body) != string(first.body) {
		t.Fatalf("a late retry answered %s", late.body)
	}
}

// TestConcurrentMovesWithOneVersion: two moves sent at once with the same If-Match: one is
// made, the other is refused with the version the match is at.
func TestConcurrentMovesWithOneVersion(t *testing.T) {
	h := newHarness(t)
	for round := 0; round < 5; round++ {
		tb := h.create(seed1, false, "human", "human")
		version := tb.view(0).Version
		statuses := make(chan *reply, 2)
		for range 2 {
			go func() {
				statuses <- tb.move(0, play("5-5", ""), "If-Match", fmt.Sprintf(`"%d-0"`, version))
			}()
		}
		a, b := <-statuses, <-statuses
		if a.status > b.status {
			a, b = b, a
		}
		if a.status != http.StatusOK {
			t.Fatalf("round %d: statuses %d and %d", round, a.status, b.status)
		}
		p := b.problem(t, 409, "VERSION_CONFLICT")
		if p.CurrentVersion == nil || *p.CurrentVersion != version+1 {
			t.Fatalf("current_version %v, want %d", p.CurrentVersion, version+1)
		}
		if n := len(tb.fullLog()); n != version+1 {
			t.Fatalf("%d events, want %d", n, version+1)
		}
	}
}
