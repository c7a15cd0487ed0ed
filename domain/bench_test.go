package domain

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRandomMatch2P plays a whole 2-player match of random legal actions, deals included.
func BenchmarkRandomMatch2P(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	events := 0
	b.ReportAllocs()
	for b.Loop() {
		events += len(playRandomMatch(b, rng, 2, false, false))
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/match")
}

// BenchmarkFold folds the log of a whole 4-player match of random play.
func BenchmarkFold(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var seed Seed
	log := playRandomMatch(b, rng, 4, false, false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resume("m", seed, log); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
