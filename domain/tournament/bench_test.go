package tournament

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSwissRound pairs round 8 of a Swiss of 256 entrants at tables of two, after seven
// rounds of random results: the largest field a tournament takes.
func BenchmarkSwissRound(b *testing.B) {
	spec := Spec{Name: "big", Format: Format2P, System: Swiss, Rounds: 8}
	l := newLogger(b, spec)
	rng := rand.New(rand.NewPCG(8, 8))
	for _, id := range ids(256) {
		l.add(TypeEntered, Entrant{Player: id, Name: id, Rating: float64(rng.IntN(3000)) / 100})
	}
	l.add(TypeStarted, Started{Entrants: ids(256), Rounds: 8})
	for range 7 {
		l.playRound(func(_, _ int, _ []string) []int { return randomScores(Format2P, rng) }, nil)
	}
	b.ResetTimer()
	for b.Loop() {
		_ = l.st.NextPairing()
	}
}

// BenchmarkStandings computes the standings of that field after seven rounds.
func BenchmarkStandings(b *testing.B) {
	spec := Spec{Name: "big", Format: Format2P, System: Swiss, Rounds: 8, Duplicate: true}
	l := newLogger(b, spec)
	rng := rand.New(rand.NewPCG(9, 9))
	for _, id := range ids(256) {
		l.add(TypeEntered, Entrant{Player: id, Name: id})
	}
	l.add(TypeStarted, Started{Entrants: ids(256), Rounds: 8})
	for range 7 {
		l.playRound(func(_, _ int, _ []string) []int { return randomScores(Format2P, rng) }, nil)
	}
	b.ResetTimer()
	for b.Loop() {
		_ = l.st.Standings()
	}
}
