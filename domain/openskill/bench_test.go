package openskill

import "testing"

// BenchmarkRate4p rates one 4-player free-for-all of players at different ratings.
func BenchmarkRate4p(b *testing.B) {
	teams := [][]Rating{{{29.182, 4.782}}, {{27.174, 4.922}}, {{16.672, 6.217}}, {{25.0, 25.0 / 3}}}
	scores := []float64{61, 40, 25, 10}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rate(teams, scores); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRate2v2 rates one 2v2 partnership match.
func BenchmarkRate2v2(b *testing.B) {
	teams := [][]Rating{{{29.182, 4.782}, {27.174, 4.922}}, {{16.672, 6.217}, {25.0, 25.0 / 3}}}
	scores := []float64{61, 55}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rate(teams, scores); err != nil {
			b.Fatal(err)
		}
	}
}
