package domain

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestActInPlaceIsAct: over whole matches of random play (two players, and four in
// partnerships), ActInPlace returns Act's events and leaves the match where Act leaves its
// own, and every refused move (out of turn, a draw or a pass the rules forbid, a tile not
// held) leaves the match as it was.
func TestActInPlaceIsAct(t *testing.T) {
	for _, tc := range []struct {
		players      int
		partnerships bool
	}{{2, false}, {3, false}, {4, true}} {
		rng := rand.New(rand.NewPCG(uint64(tc.players), 5))
		for range 4 {
			var seed Seed
			for i := range seed {
				seed[i] = byte(rng.UintN(256))
			}
			log, err := Start(MatchSpec{Players: humans(tc.players), Partnerships: tc.partnerships}, seed, testAt)
			if err != nil {
				t.Fatal(err)
			}
			acted, err := Resume("m", seed, log)
			if err != nil {
				t.Fatal(err)
			}
			inPlace := acted.Clone()
			for !acted.Finished() {
				seat := acted.Turn()
				var notHeld Tile
				for _, tile := range Deck(seed, 1, 0) {
					if !contains(acted.hand.hands[seat], tile) {
						notHeld = tile
						break
					}
				}
				caughtUp := false
				for _, bad := range []struct {
					seat int
					mv   Move
				}{{(seat + 1) % tc.players, Draw()}, {seat, Draw()}, {seat, Pass()}, {seat, Move{Action: ActionPlay, Tile: notHeld}}} {
					got, err := inPlace.ActInPlace(bad.seat, bad.mv, testAt)
					if err == nil { // a legal draw or pass: Act must take it alike
						want, err := acted.Act(bad.seat, bad.mv, testAt)
						if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(inPlace, acted) {
							t.Fatalf("seat %d %v: ActInPlace took it with %v, Act: %v %v", bad.seat, bad.mv, got, want, err)
						}
						caughtUp = true
						break
					}
					if !reflect.DeepEqual(inPlace, acted) {
						t.Fatalf("a refused %v by seat %d changed the match", bad.mv, bad.seat)
					}
				}
				if caughtUp {
					continue
				}
				legal := acted.LegalMoves(seat)
				mv := legal[rng.IntN(len(legal))].Move()
				want, err := acted.Act(seat, mv, testAt)
				if err != nil {
					t.Fatal(err)
				}
				got, err := inPlace.ActInPlace(seat, mv, testAt)
				if err != nil {
					t.Fatalf("ActInPlace refused what Act took: %v", err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("seat %d %v: events %v, Act's %v", seat, mv, got, want)
				}
				if !reflect.DeepEqual(inPlace, acted) {
					t.Fatalf("seat %d %v: ActInPlace left another state than Act", seat, mv)
				}
			}
		}
	}
}
