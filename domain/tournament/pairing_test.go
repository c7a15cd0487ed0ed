package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%02d", i)
	}
	return out
}

// meetings counts how often each pair shared a table.
type meetings map[[2]string]int

func (m meetings) add(p Pairing) {
	for _, t := range p.Tables {
		for _, a := range t.Seats {
			for _, b := range t.Seats {
				if a != b {
					m[[2]string{a, b}]++
				}
			}
		}
	}
}

func (m meetings) met(a, b string) bool { return m[[2]string{a, b}] > 0 }

// repeats counts the pairs of p that met before.
func (m meetings) repeats(p Pairing) int {
	n := 0
	for _, t := range p.Tables {
		for i, a := range t.Seats {
			for _, b := range t.Seats[i+1:] {
				if m.met(a, b) {
					n++
				}
			}
		}
	}
	return n
}

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

func checkPairing(t *testing.T, p Pairing, players []string, size int) {
	t.Helper()
	seen := map[string]bool{}
	for _, tb := range p.Tables {
		if len(tb.Seats) != size {
			t.Fatalf("a table of %d seats, want %d: %v", len(tb.Seats), size, p)
		}
		for _, s := range tb.Seats {
			if seen[s] {
				t.Fatalf("%s seated twice: %v", s, p)
			}
			seen[s] = true
		}
	}
	for _, b := range p.Byes {
		if seen[b] {
			t.Fatalf("%s both plays and sits out: %v", b, p)
		}
		seen[b] = true
	}
	if len(seen) != len(players) || len(p.Byes) != len(players)%size {
		t.Fatalf("pairing covers %d of %d with %d byes: %v", len(seen), len(players), len(p.Byes), p)
	}
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

// TestRoundRobinOfFour: 3 rounds, every pair once, each player seat 0 once or twice.
func TestRoundRobinOfFour(t *testing.T) {
	players := ids(4)
	if RoundRobinRounds(4) != 3 || RoundRobinRounds(5) != 5 {
		t.Fatalf("rounds: %d for 4, %d for 5", RoundRobinRounds(4), RoundRobinRounds(5))
	}
	m := meetings{}
	first := map[string]int{}
	for r := 1; r <= 3; r++ {
		p := PairRoundRobin(players, r)
		checkPairing(t, p, players, 2)
		if m.repeats(p) > 0 {
			t.Fatalf("round %d repeats: %v", r, p)
		}
		m.add(p)
		for _, tb := range p.Tables {
			first[tb.Seats[0]]++
		}
	}
	for _, a := range players {
		for _, b := range players {
			if a != b && !m.met(a, b) {
				t.Fatalf("%s never met %s", a, b)
			}
		}
		if first[a] < 1 || first[a] > 2 {
			t.Fatalf("%s held seat 0 %d times of 3", a, first[a])
		}
	}
}

// TestRoundRobinOdd: 5 players, 5 rounds, each sits out once and meets every other once.
func TestRoundRobinOdd(t *testing.T) {
	players := ids(5)
	m := meetings{}
	out := map[string]int{}
	for r := 1; r <= RoundRobinRounds(5); r++ {
		p := PairRoundRobin(players, r)
		checkPairing(t, p, players, 2)
		m.add(p)
		for _, b := range p.Byes {
			out[b]++
		}
	}
	for _, a := range players {
		if out[a] != 1 {
			t.Fatalf("%s sat out %d times", a, out[a])
		}
		for _, b := range players {
			if a != b && m[[2]string{a, b}] != 1 {
				t.Fatalf("%s met %s %d times", a, b, m[[2]string{a, b}])
			}
		}
	}
}
