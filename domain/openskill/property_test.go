package openskill

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomRating is a plausible rating: Mu in [5, 45), Sigma in [0.5, 25/3].
func randomRating(rng *rand.Rand) Rating {
	return Rating{Mu: 5 + 40*rng.Float64(), Sigma: 0.5 + (25.0/3-0.5)*rng.Float64()}
}

// randomMatch is 2 to 4 teams of 1 or 2 players with distinct scores.
func randomMatch(rng *rand.Rand) ([][]Rating, []float64) {
	k := 2 + rng.IntN(3)
	teams := make([][]Rating, k)
	for i := range teams {
		teams[i] = make([]Rating, 1+rng.IntN(2))
		for j := range teams[i] {
			teams[i][j] = randomRating(rng)
		}
	}
	scores := make([]float64, k)
	for i, p := range rng.Perm(k) {
		scores[i] = float64(5 * p)
	}
	return teams, scores
}

// The winning side's players gain Mu and the last side's lose it, whatever their ratings.
func TestPropertyWinnersRiseLosersFall(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		teams, scores := randomMatch(rng)
		got, err := Rate(teams, scores)
		if err != nil {
			t.Fatal(err)
		}
		first, last := slices.Index(scores, slices.Max(scores)), slices.Index(scores, slices.Min(scores))
		for j, r := range teams[first] {
			if got[first][j].Mu <= r.Mu {
				t.Fatalf("winner %v fell to %v in %v with scores %v", r, got[first][j], teams, scores)
			}
		}
		for j, r := range teams[last] {
			if got[last][j].Mu >= r.Mu {
				t.Fatalf("loser %v rose to %v in %v with scores %v", r, got[last][j], teams, scores)
			}
		}
	}
}

// A match only teaches: no Sigma ends above sqrt(Sigma^2 + Tau^2), the dynamics step alone.
func TestPropertySigmaNeverGrowsPastTau(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := Default()
	for range 2000 {
		teams, scores := randomMatch(rng)
		if rng.IntN(4) == 0 {
			scores[1] = scores[0] // ties too
		}
		got, err := m.Rate(teams, scores)
		if err != nil {
			t.Fatal(err)
		}
		for i := range teams {
			for j, r := range teams[i] {
				bound := math.Sqrt(r.Sigma*r.Sigma + m.Tau*m.Tau)
				if s := got[i][j].Sigma; s > bound || s <= 0 {
					t.Fatalf("sigma %v became %v, bound %v", r.Sigma, s, bound)
				}
			}
		}
	}
}

// Equal players are treated alike: teammates of equal ratings get equal ratings, a 1v1 of
// equals moves both by the same amount in opposite directions, and the order the teams are
// listed in changes nothing.
func TestPropertySymmetry(t *testing.T) {
	r := Default().New()
	got, err := Rate([][]Rating{repeat(r, 2), repeat(r, 2)}, []float64{61, 30})
	if err != nil {
		t.Fatal(err)
	}
	if got[0][0] != got[0][1] || got[1][0] != got[1][1] {
		t.Fatalf("equal teammates rated apart: %v", got)
	}
	if gain, loss := got[0][0].Mu-r.Mu, r.Mu-got[1][0].Mu; math.Abs(gain-loss) > 1e-12 || gain <= 0 {
		t.Fatalf("2v2 of equals: gain %v, loss %v", gain, loss)
	}
	if got[0][0].Sigma != got[1][0].Sigma {
		t.Fatalf("2v2 of equals: sigmas %v and %v", got[0][0].Sigma, got[1][0].Sigma)
	}

	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		teams, scores := randomMatch(rng)
		want, err := Rate(teams, scores)
		if err != nil {
			t.Fatal(err)
		}
		perm := rng.Perm(len(teams))
		shuffled, shuffledScores := make([][]Rating, len(teams)), make([]float64, len(teams))
		for to, from := range perm {
			shuffled[to], shuffledScores[to] = teams[from], scores[from]
		}
		got, err := Rate(shuffled, shuffledScores)
		if err != nil {
			t.Fatal(err)
		}
		for to, from := range perm {
			for j := range want[from] {
				if d := math.Abs(got[to][j].Mu - want[from][j].Mu); d > 1e-12 {
					t.Fatalf("listing order changed a mu by %v", d)
				}
				if d := math.Abs(got[to][j].Sigma - want[from][j].Sigma); d > 1e-12 {
					t.Fatalf("listing order changed a sigma by %v", d)
				}
			}
		}
	}
}

// A tie between equals says nothing about who is better: every Mu stays, every Sigma shrinks
// below sqrt(Sigma^2 + Tau^2) (the tie was still evidence that they are close).
func TestPropertyTieBetweenEqualsKeepsMu(t *testing.T) {
	m := Default()
	for _, r := range []Rating{m.New(), {Mu: 31.5, Sigma: 2.25}} {
		for _, teams := range [][][]Rating{ffa(r, 2), ffa(r, 3), ffa(r, 4), {repeat(r, 2), repeat(r, 2)}} {
			scores := make([]float64, len(teams))
			got, err := m.Rate(teams, scores)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				for _, g := range got[i] {
					if math.Abs(g.Mu-r.Mu) > 1e-12 {
						t.Fatalf("tie of %d equals moved mu %v to %v", len(teams), r.Mu, g.Mu)
					}
					if g.Sigma >= math.Sqrt(r.Sigma*r.Sigma+m.Tau*m.Tau) {
						t.Fatalf("tie of %d equals left sigma at %v", len(teams), g.Sigma)
					}
				}
			}
		}
	}
}

// Scores far apart or close give the same update: only the order counts (docs/ratings.md,
// "Ranks from scores"), and RateRanks with the places agrees with Rate.
func TestPropertyOnlyOrderCounts(t *testing.T) {
	r := Default().New()
	teams := ffa(r, 4)
	a, err := Rate(teams, []float64{61, 60, 59, 58})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Rate(teams, []float64{-3, 200, 7, 7.5})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Default().RateRanks(teams, []int{4, 1, 3, 2})
	if err != nil {
		t.Fatal(err)
	}
	assertTeams(t, b, [][]Rating{a[3], a[0], a[2], a[1]})
	assertTeams(t, c, b)
}

// The input is not modified: the projection keeps the ratings before the match.
func TestRateLeavesInputAlone(t *testing.T) {
	teams := [][]Rating{{{30, 4}}, {{20, 6}}}
	if _, err := Rate(teams, []float64{1, 0}); err != nil {
		t.Fatal(err)
	}
	if teams[0][0] != (Rating{30, 4}) || teams[1][0] != (Rating{20, 6}) {
		t.Fatalf("input changed: %v", teams)
	}
}
