package puzzles_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/domain/openskill"
)

// reviewed plays a partnership match of random moves to 100 and reviews it on a small budget.
func reviewed(t *testing.T) ([]domain.Event, *analysis.Result) {
	t.Helper()
	spec := matchtest.Spec(matchtest.Shape{Players: 4, Partnerships: true}, 100)
	events := matchtest.PlayOut(t, spec, matchtest.Seed(7), matchtest.RandomMove(rand.New(rand.NewPCG(1, 2))), 0)
	res, err := analysis.Review(context.Background(), events, analysis.Options{Rollouts: 200, HindsightNodes: 500, ParRuns: -1})
	if err != nil {
		t.Fatal(err)
	}
	return events, res
}

// TestMakeShowsWhatTheSeatSaw: every puzzle Make finds is a decision the rule admits, its
// options the review's candidates, its position the seat's own tiles at that step with every
// other seat's tiles counted only, and its history's draws counts without tiles.
func TestMakeShowsWhatTheSeatSaw(t *testing.T) {
	events, res := reviewed(t)
	ps, err := puzzles.Make(events, res, analysis.DefaultPuzzleRule)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Fatal("a match of random moves gave no puzzle")
	}
	for _, p := range ps {
		i := slices.IndexFunc(res.Decisions, func(d analysis.Decision) bool { return d.Seq == p.Step })
		d := res.Decisions[i]
		if !analysis.DefaultPuzzleRule.Puzzle(d) || !slices.Equal(p.Options, d.Candidates) || p.Best != d.Best || p.Played != d.Played {
			t.Fatalf("puzzle at %d is not its review's decision: %+v", p.Step, p)
		}
		j := slices.IndexFunc(events, func(e domain.Event) bool { return e.Seq == p.Step })
		m, err := domain.Rebuild("m", events[:j])
		if err != nil {
			t.Fatal(err)
		}
		hand := m.View(domain.SeatViewer(p.Seat).Opened()).Hand
		var want []string
		for _, tile := range hand.Hands[p.Seat] {
			want = append(want, tile.String())
		}
		if !slices.Equal(p.Position.Hand, want) || p.Position.Boneyard != len(hand.BoneyardTiles) {
			t.Fatalf("puzzle at %d: hand %v boneyard %d, the seat held %v of a boneyard of %d", p.Step, p.Position.Hand, p.Position.Boneyard, want, len(hand.BoneyardTiles))
		}
		for s, n := range p.Position.HandSizes {
			if n != len(hand.Hands[s]) {
				t.Fatalf("puzzle at %d: seat %d holds %d, shown %d", p.Step, s, len(hand.Hands[s]), n)
			}
		}
		for _, st := range p.Position.History {
			if st.Action == "draw" && (st.Tile != "" || st.Count < 1) {
				t.Fatalf("puzzle at %d: a draw shown as %+v", p.Step, st)
			}
		}
		if p.Player != "" || len(p.Players) != 0 {
			t.Fatalf("a match of anonymous seats gave a player's puzzle: %+v", p)
		}
	}
}

// memStore is the least of a store the service's tests need.
type memStore struct {
	mu sync.Mutex
	ps []puzzles.Puzzle
}

func (s *memStore) PutPuzzles(_ context.Context, ps []puzzles.Puzzle) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ps = append(s.ps, ps...)
	return nil
}

func (s *memStore) Puzzle(_ context.Context, id string) (puzzles.Puzzle, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.ps, func(p puzzles.Puzzle) bool { return p.ID == id })
	if i < 0 {
		return puzzles.Puzzle{}, false, nil
	}
	return s.ps[i], true, nil
}

func (s *memStore) NextPuzzle(context.Context, string, float64, string) (puzzles.Puzzle, bool, error) {
	return puzzles.Puzzle{}, false, nil
}

func (s *memStore) PlayerPuzzles(context.Context, string, int) ([]puzzles.Puzzle, error) {
	return nil, nil
}

func (s *memStore) Solver(context.Context, string) (puzzles.Solver, bool, error) {
	return puzzles.Solver{}, false, nil
}

func (s *memStore) RecordAttempt(context.Context, puzzles.Attempt, openskill.Rating, puzzles.Rate) (puzzles.Solver, bool, error) {
	return puzzles.Solver{}, false, nil
}

type sealer bool

func (s sealer) Sealed(context.Context, string) (bool, error) { return bool(s), nil }

// TestSealedMatchGivesNoPuzzle: a match its round still seals gives no puzzle, the same
// match unsealed does; an attempt's move may leave out the end of a tile that fits one end.
func TestSealedMatchGivesNoPuzzle(t *testing.T) {
	events, res := reviewed(t)
	store := &memStore{}
	if err := puzzles.New(puzzles.Config{Store: store, Sealer: sealer(true)}).Reviewed(context.Background(), "m", events, res); err != nil || len(store.ps) != 0 {
		t.Fatalf("a sealed match: %d puzzles, err %v", len(store.ps), err)
	}
	svc := puzzles.New(puzzles.Config{Store: store, Sealer: sealer(false)})
	if err := svc.Reviewed(context.Background(), "m", events, res); err != nil || len(store.ps) == 0 {
		t.Fatalf("the match unsealed: %d puzzles, err %v", len(store.ps), err)
	}
	p := store.ps[0]
	best := p.Best
	ans, err := svc.Attempt(context.Background(), p.ID, "", best)
	if err != nil || !ans.Correct || ans.Rated {
		t.Fatalf("the best move: %+v err %v", ans, err)
	}
	if _, err := svc.Attempt(context.Background(), p.ID, "", puzzles.Move{Action: "play", Tile: "9-9"}); err != puzzles.ErrNotAnOption {
		t.Fatalf("a tile of no option: %v", err)
	}
	if _, err := svc.Attempt(context.Background(), "nope", "", best); err != puzzles.ErrPuzzleNotFound {
		t.Fatalf("no such puzzle: %v", err)
	}
}
