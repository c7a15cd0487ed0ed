package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/openskill"
)

// RunPuzzles checks store against the puzzles.Store contract. open must return a new, empty
// store for each call; it is called once per subtest.
func RunPuzzles(t *testing.T, open func(t *testing.T) puzzles.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, puzzles.Store)
	}{
		{"PutAndRead", testPuzzlePutAndRead},
		{"OncePerDecision", testPuzzleOncePerDecision},
		{"NextNearest", testPuzzleNextNearest},
		{"NextFromAnId", testPuzzleNextFromAnID},
		{"NextNeverOwnNorAttempted", testPuzzleNextNeverOwn},
		{"PlayerPuzzles", testPuzzlePlayerPuzzles},
		{"FirstAttemptOnly", testPuzzleFirstAttemptOnly},
		{"ConcurrentSolvers", testPuzzleConcurrentSolvers},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

var puzzleEpoch = time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)

// PuzzleFixture is a puzzle of match at step, rated mu, decided by player ("" for a bot)
// at a table of players.
func PuzzleFixture(id, match string, step int, mu float64, player string, players ...string) puzzles.Puzzle {
	return puzzles.Puzzle{
		ID: id, Match: match, Step: step, Seat: 1, Player: player, Players: players,
		Position: puzzles.Position{
			Seat: 1, Players: 2, Target: 250, Scores: []int{10, 25}, HandNumber: 2,
			Hand: []string{"1-4", "6-6"}, Line: []string{"3-6", "6-2"}, HandSizes: []int{4, 2}, Boneyard: 9,
			History:    []puzzles.Step{{Seat: 0, Action: "play", Tile: "3-6", End: "left"}, {Seat: 1, Action: "draw", Count: 2}},
			LegalMoves: []puzzles.Move{{Action: "play", Tile: "6-6", End: "left"}, {Action: "play", Tile: "1-4", End: "right"}},
		},
		Options: []puzzles.Option{
			{Move: puzzles.Move{Action: "play", Tile: "6-6", End: "left"}, Value: 12.5},
			{Move: puzzles.Move{Action: "play", Tile: "1-4", End: "right"}, Value: -3.25},
		},
		Played: puzzles.Move{Action: "play", Tile: "1-4", End: "right"}, Best: puzzles.Move{Action: "play", Tile: "6-6", End: "left"},
		Loss: 15.75, Rating: openskill.Rating{Mu: mu, Sigma: 25.0 / 3}, CreatedAt: puzzleEpoch.Add(time.Duration(step) * time.Second),
	}
}

func mustPutPuzzles(t *testing.T, s puzzles.Store, ps ...puzzles.Puzzle) {
	t.Helper()
	if err := s.PutPuzzles(ctx, ps); err != nil {
		t.Fatal(err)
	}
}

func testPuzzlePutAndRead(t *testing.T, s puzzles.Store) {
	want := PuzzleFixture("pz1", "m1", 17, 25, "alice", "alice", "bob")
	mustPutPuzzles(t, s, want)
	got, ok, err := s.Puzzle(ctx, "pz1")
	if err != nil || !ok {
		t.Fatalf("Puzzle: ok %v err %v", ok, err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, want)
	}
	if _, ok, err := s.Puzzle(ctx, "nope"); ok || err != nil {
		t.Fatalf("an unknown puzzle: ok %v err %v", ok, err)
	}
}

func testPuzzleOncePerDecision(t *testing.T, s puzzles.Store) {
	mustPutPuzzles(t, s, PuzzleFixture("pz1", "m1", 17, 25, ""))
	mustPutPuzzles(t, s, PuzzleFixture("pz2", "m1", 17, 30, ""), PuzzleFixture("pz3", "m1", 18, 30, ""))
	if _, ok, _ := s.Puzzle(ctx, "pz2"); ok {
		t.Fatal("a second puzzle of one decision was stored")
	}
	if _, ok, _ := s.Puzzle(ctx, "pz3"); !ok {
		t.Fatal("the batch's other puzzle was not stored")
	}
}

func testPuzzleNextNearest(t *testing.T, s puzzles.Store) {
	mustPutPuzzles(t, s, PuzzleFixture("a", "m1", 1, 10, ""), PuzzleFixture("b", "m1", 2, 20, ""), PuzzleFixture("c", "m1", 3, 31, ""))
	for mu, want := range map[float64]string{0: "a", 14: "a", 16: "b", 26: "c", 99: "c"} {
		got, ok, err := s.NextPuzzle(ctx, "", mu, "")
		if err != nil || !ok || got.ID != want {
			t.Errorf("near %g: %s ok %v err %v, want %s", mu, got.ID, ok, err, want)
		}
	}
}

// testPuzzleNextFromAnID: among puzzles of one mu, the one at or after from in id order,
// else the last before it.
func testPuzzleNextFromAnID(t *testing.T, s puzzles.Store) {
	mustPutPuzzles(t, s, PuzzleFixture("pz1", "m1", 1, 25, ""), PuzzleFixture("pz2", "m1", 2, 25, ""), PuzzleFixture("pz3", "m1", 3, 25, ""))
	for from, want := range map[string]string{"": "pz1", "pz1": "pz1", "pz15": "pz2", "pz3": "pz3", "pz9": "pz3"} {
		got, ok, err := s.NextPuzzle(ctx, "", 25, from)
		if err != nil || !ok || got.ID != want {
			t.Errorf("from %q: %s ok %v err %v, want %s", from, got.ID, ok, err, want)
		}
	}
}

func testPuzzleNextNeverOwn(t *testing.T, s puzzles.Store) {
	mustPutPuzzles(t, s, PuzzleFixture("mine", "m1", 1, 25, "", "alice"), PuzzleFixture("other", "m2", 1, 40, "", "bob"))
	got, ok, err := s.NextPuzzle(ctx, "alice", 25, "")
	if err != nil || !ok || got.ID != "other" {
		t.Fatalf("alice near her own: %s ok %v err %v, want other", got.ID, ok, err)
	}
	if _, _, err := s.RecordAttempt(ctx, puzzles.Attempt{Puzzle: "other", Player: "alice", At: puzzleEpoch}, openskill.Default().New(), keep); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.NextPuzzle(ctx, "alice", 25, ""); ok || err != nil {
		t.Fatalf("alice after attempting the other: %s ok %v err %v, want none", got.ID, ok, err)
	}
}

// keep rates nothing: the ratings stay as they are.
func keep(solver, puzzle openskill.Rating, _ bool) (openskill.Rating, openskill.Rating, error) {
	return solver, puzzle, nil
}

func testPuzzlePlayerPuzzles(t *testing.T, s puzzles.Store) {
	mustPutPuzzles(t, s, PuzzleFixture("p1", "m1", 1, 25, "alice", "alice"), PuzzleFixture("p2", "m1", 5, 25, "alice", "alice"),
		PuzzleFixture("p3", "m1", 3, 25, "", "alice"), PuzzleFixture("p4", "m2", 1, 25, "bob", "bob"))
	got, err := s.PlayerPuzzles(ctx, "alice", 10)
	if err != nil || len(got) != 2 || got[0].ID != "p2" || got[1].ID != "p1" {
		t.Fatalf("alice's puzzles: %v err %v, want p2 then p1", ids(got), err)
	}
	if got, err := s.PlayerPuzzles(ctx, "", 10); err != nil || len(got) != 0 {
		t.Fatalf("the bots' puzzles listed as a player's: %v err %v", ids(got), err)
	}
}

func ids(ps []puzzles.Puzzle) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

func testPuzzleFirstAttemptOnly(t *testing.T, s puzzles.Store) {
	mustPutPuzzles(t, s, PuzzleFixture("p", "m1", 1, 25, ""))
	up := func(solver, puzzle openskill.Rating, correct bool) (openskill.Rating, openskill.Rating, error) {
		if !correct {
			t.Error("rated as wrong")
		}
		return openskill.Rating{Mu: solver.Mu + 1, Sigma: solver.Sigma}, openskill.Rating{Mu: puzzle.Mu - 1, Sigma: puzzle.Sigma}, nil
	}
	start := openskill.Default().New()
	if _, ok, err := s.Solver(ctx, "alice"); ok || err != nil {
		t.Fatalf("a solver before any attempt: ok %v err %v", ok, err)
	}
	sv, first, err := s.RecordAttempt(ctx, puzzles.Attempt{Puzzle: "p", Player: "alice", Correct: true, At: puzzleEpoch}, start, up)
	if err != nil || !first || sv.Rating.Mu != start.Mu+1 || sv.Attempts != 1 || sv.Solved != 1 {
		t.Fatalf("first attempt: %+v first %v err %v", sv, first, err)
	}
	sv, first, err = s.RecordAttempt(ctx, puzzles.Attempt{Puzzle: "p", Player: "alice", Correct: true, At: puzzleEpoch}, start, up)
	if err != nil || first || sv.Rating.Mu != start.Mu+1 || sv.Attempts != 1 {
		t.Fatalf("second attempt: %+v first %v err %v, want unrated and unchanged", sv, first, err)
	}
	p, _, _ := s.Puzzle(ctx, "p")
	if p.Rating.Mu != 24 || p.Attempts != 1 || p.Solved != 1 {
		t.Fatalf("the puzzle after one rated attempt: %+v", p)
	}
}

func testPuzzleConcurrentSolvers(t *testing.T, s puzzles.Store) {
	mustPutPuzzles(t, s, PuzzleFixture("p", "m1", 1, 25, ""))
	down := func(solver, puzzle openskill.Rating, _ bool) (openskill.Rating, openskill.Rating, error) {
		return solver, openskill.Rating{Mu: puzzle.Mu - 1, Sigma: puzzle.Sigma}, nil
	}
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := s.RecordAttempt(ctx, puzzles.Attempt{Puzzle: "p", Player: fmt.Sprint("solver", i), At: puzzleEpoch}, openskill.Default().New(), down); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	p, _, _ := s.Puzzle(ctx, "p")
	if p.Attempts != n || p.Rating.Mu != 25-n {
		t.Fatalf("after %d solvers at once: attempts %d mu %g, want %d and %d (a rating lost to a race)", n, p.Attempts, p.Rating.Mu, n, 25-n)
	}
}
