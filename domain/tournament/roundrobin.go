package tournament

import "slices"

// RoundRobin has every pair of entrants meet once, two players a table
// (docs/tournaments.md, "Round robin").
const RoundRobin System = "round_robin"

func init() { register(roundRobin{}) }

// roundRobin is the round robin: 2p only, its rounds fixed by its entries, each paired by
// PairRoundRobin.
type roundRobin struct{}

func (roundRobin) Name() System { return RoundRobin }

func (roundRobin) Check(s Spec) error {
	switch {
	case s.Format != Format2P:
		return invalidf("system: a round robin pairs two players a table; use swiss for %s", s.Format)
	case s.Rounds != 0:
		return invalidf("rounds: a round robin plays every pairing once, leave rounds out")
	}
	return nil
}

// MaxEntries: 32 entries play 31 rounds.
func (roundRobin) MaxEntries() int { return 32 }

func (roundRobin) Rounds(_ Spec, entries int) int { return RoundRobinRounds(entries) }

func (roundRobin) TieBreaks() []TieBreak { return StandardTieBreaks() }

// Pair is the next round of the circle over the entrants in entry order.
func (roundRobin) Pair(st *State) Pairing { return PairRoundRobin(st.Playing, len(st.Rounds)+1) }

// RoundRobinRounds is how many rounds a round robin of n entrants plays: n-1, or n when n is
// odd (each entrant sits out once).
func RoundRobinRounds(n int) int {
	if n%2 == 1 {
		n++
	}
	return max(n-1, 0)
}

// PairRoundRobin is round r (1-based) of a round robin of ids by the circle method
// (docs/tournaments.md, "Round robin"): ids[0] stays put while the others turn one place a
// round; the i-th from the top meets the i-th from the bottom. An odd field adds an empty
// place, whose partner sits out. Seats alternate: the fixed entrant takes seat 0 in odd
// rounds and seat 1 in even ones, and the other tables alternate down the list, so that
// every entrant holds each seat as evenly as the field allows.
func PairRoundRobin(ids []string, r int) Pairing {
	ring := slices.Clone(ids)
	if len(ring)%2 == 1 {
		ring = append(ring, "")
	}
	n := len(ring)
	if n < 2 {
		return Pairing{}
	}
	turned := make([]string, n)
	turned[0] = ring[0]
	for i := 1; i < n; i++ {
		turned[1+(i-1+r-1)%(n-1)] = ring[i]
	}
	var p Pairing
	for i := range n / 2 {
		a, b := turned[i], turned[n-1-i]
		if i == 0 && r%2 == 0 || i > 0 && i%2 == 1 {
			a, b = b, a
		}
		switch {
		case a == "":
			p.Byes = append(p.Byes, b)
		case b == "":
			p.Byes = append(p.Byes, a)
		default:
			p.Tables = append(p.Tables, Table{Seats: []string{a, b}})
		}
	}
	return p
}
