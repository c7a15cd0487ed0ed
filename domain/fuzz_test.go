package domain

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

func FuzzParseTile(f *testing.F) {
	for _, s := range []string{"4-6", "6-4", "0-0", "7-7", "", "-", "4-6-", "\x00-\x01", " 1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tl, err := ParseTile(s)
		if err != nil {
			if CodeOf(err) != CodeInvalidRequest {
				t.Fatalf("ParseTile(%q): error without INVALID_REQUEST: %v", s, err)
			}
			return
		}
		again, err := ParseTile(tl.String())
		if err != nil || again != tl || tl.Low() > tl.High() || tl.High() > MaxPip {
			t.Fatalf("ParseTile(%q) = %v does not round-trip", s, tl)
		}
		var viaJSON Tile
		b, _ := json.Marshal(tl)
		if err := json.Unmarshal(b, &viaJSON); err != nil || viaJSON != tl {
			t.Fatalf("JSON round trip of %v: %v %v", tl, viaJSON, err)
		}
	})
}

// FuzzCommands feeds arbitrary command sequences to a match: illegal ones must be refused with
// a coded error and change nothing, legal ones must keep every invariant.
func FuzzCommands(f *testing.F) {
	f.Add(uint64(1), uint8(2), false, []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add(uint64(7), uint8(4), true, []byte{9, 200, 13, 77, 1, 1, 1, 1, 1, 1})
	f.Add(uint64(42), uint8(3), false, []byte("draw pass play left right"))
	f.Fuzz(func(t *testing.T, seedN uint64, players uint8, partnerships bool, cmds []byte) {
		n := 2 + int(players)%3
		partnerships = partnerships && n == 4
		rng := rand.New(rand.NewPCG(seedN, 0))
		var seed Seed
		for i := range seed {
			seed[i] = byte(rng.UintN(256))
		}
		log, err := Start(MatchSpec{Players: humans(n), Partnerships: partnerships, Target: 50, Seeded: true}, seed, testAt)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := Resume("m", seed, log)
		for i := 0; i+2 < len(cmds) && !m.Finished(); i += 3 {
			seat, mv := fuzzCommand(m, cmds[i], cmds[i+1], cmds[i+2])
			evs, err := m.Decide(seat, mv, testAt)
			if err != nil {
				if CodeOf(err) == CodeInternal {
					t.Fatalf("seat %d move %+v: uncoded error %v", seat, mv, err)
				}
				continue
			}
			log = applyChecked(t, m, seed, log, evs)
		}
	})
}

// fuzzCommand turns three bytes into a command: mostly by the seat to move, with any tile.
func fuzzCommand(m *Match, a, b, c byte) (int, Move) {
	seat := m.Turn()
	if a&0x80 != 0 {
		seat = int(a>>4) % (m.Table().Players() + 1) // sometimes out of turn or no such seat
	}
	tl := FullSet()[int(b)%SetSize]
	switch a % 4 {
	case 0:
		return seat, Draw()
	case 1:
		return seat, Pass()
	case 2:
		return seat, Move{Action: ActionPlay, Tile: tl}
	}
	return seat, Play(tl, End(c%2))
}
