package tournament

import "testing"

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
