package tournament

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// noRepeatExists says by brute force whether players can be seated at tables of size with no
// two who met, some bye set of the right size aside.
func noRepeatExists(players []string, size int, m meetings) bool {
	var try func(free []string, byes int) bool
	try = func(free []string, byes int) bool {
		if len(free) == 0 {
			return true
		}
		if byes > 0 && try(free[1:], byes-1) {
			return true
		}
		a := free[0]
		var pick func(table []string, from int) bool
		pick = func(table []string, from int) bool {
			if len(table) == size {
				rest := slices.DeleteFunc(slices.Clone(free), func(x string) bool { return slices.Contains(table, x) })
				return try(rest, byes)
			}
			for i := from; i < len(free); i++ {
				ok := true
				for _, t := range table {
					if m.met(t, free[i]) {
						ok = false
					}
				}
				if ok && pick(append(slices.Clone(table), free[i]), i+1) {
					return true
				}
			}
			return false
		}
		return pick([]string{a}, 1)
	}
	return try(players, len(players)%size)
}

// TestSwissNineOverFourRounds: 9 players, 4 rounds, one bye each round, never the same player
// twice, and no pair meets twice (avoidable at 9 over 4 rounds).
func TestSwissNineOverFourRounds(t *testing.T) {
	st := runTournament(t, Spec{Name: "nine", Format: Format2P, System: Swiss, Rounds: 4}, 9, rand.New(rand.NewPCG(9, 4)))
	m := meetings{}
	byes := map[string]int{}
	for _, r := range st.Rounds {
		checkPairing(t, r.Pairing, st.Playing, 2)
		if n := m.repeats(r.Pairing); n > 0 {
			t.Fatalf("round %d repeats %d pairings", r.Number, n)
		}
		m.add(r.Pairing)
		if len(r.Pairing.Byes) != 1 {
			t.Fatalf("round %d: byes %v, want one", r.Number, r.Pairing.Byes)
		}
		byes[r.Pairing.Byes[0]]++
	}
	for p, n := range byes {
		if n > 1 {
			t.Fatalf("%s had %d byes", p, n)
		}
	}
	if st.Status != Finished || len(st.Final) != 9 {
		t.Fatalf("status %s, %d standings", st.Status, len(st.Final))
	}
}

// TestSwissProperty pairs random score tables after random histories, for tables of 2, 3 and
// 4: each pairing seats everyone once, the byes go to those with the fewest byes, and it has
// a repeat only when no pairing without one exists.
func TestSwissProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		size := 2 + trial%3
		n := size + rng.IntN(9)
		players := ids(n)
		m := meetings{}
		for range rng.IntN(4) {
			shuffled := slices.Clone(players)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			var p Pairing
			for i := 0; i+size <= len(shuffled); i += size {
				p.Tables = append(p.Tables, Table{Seats: shuffled[i : i+size]})
			}
			m.add(p)
		}
		cands := make([]Candidate, n)
		for i, id := range players {
			cands[i] = Candidate{ID: id, Points: float64(rng.IntN(5)) / 2, Rating: rng.Float64() * 30, Byes: rng.IntN(2)}
		}
		p := PairSwiss(cands, size, m.met)
		checkPairing(t, p, players, size)
		minByes := slices.MinFunc(cands, func(a, b Candidate) int { return a.Byes - b.Byes }).Byes
		for _, b := range p.Byes {
			i := slices.IndexFunc(cands, func(c Candidate) bool { return c.ID == b })
			if size == 2 && cands[i].Byes > minByes && m.repeats(p) == 0 {
				// A bye beyond the fewest is allowed only to avoid a repeat; recheck that no
				// fewest-bye player could sit out with no repeat.
				for _, c := range cands {
					if c.Byes == minByes {
						rest := slices.DeleteFunc(slices.Clone(players), func(x string) bool { return x == c.ID })
						if noRepeatExists(rest, size, m) {
							t.Fatalf("trial %d: bye to %s (%d byes) though %s (%d) could sit out", trial, b, cands[i].Byes, c.ID, c.Byes)
						}
					}
				}
			}
		}
		if r := m.repeats(p); r > 0 && noRepeatExists(players, size, m) && size == 2 {
			t.Fatalf("trial %d: %d repeats though a pairing without any exists", trial, r)
		}
	}
}
