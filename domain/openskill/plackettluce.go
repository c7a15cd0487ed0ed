package openskill

import (
	"fmt"
	"math"
)

// team is one side's sums after the dynamics step: the sum of its players' Mu and of their
// Sigma^2 (docs/ratings.md, "Teams").
type team struct {
	mu, sigmaSq float64
}

// rate is Algorithm 4 of Weng & Lin (2011) with the Plackett-Luce likelihood, as OpenSkill
// applies it (docs/ratings.md, "The update"). above(q, i) says team q ranks at or above team
// i, r(q) <= r(i); tied(q, i) says they share a rank.
func (m Model) rate(teams [][]Rating, above, tied func(q, i int) bool) ([][]Rating, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := check(teams); err != nil {
		return nil, err
	}
	k := len(teams)
	sums := make([]team, k)
	tauSq := m.Tau * m.Tau
	cSq := 0.0
	for i, players := range teams {
		for _, r := range players {
			sums[i].mu += r.Mu
			sums[i].sigmaSq += r.Sigma*r.Sigma + tauSq
		}
		cSq += sums[i].sigmaSq + m.Beta*m.Beta
	}
	c := math.Sqrt(cSq)

	// exp(mu_i/c) only ever appears in ratios, so shifting every exponent by the largest
	// keeps them in range for any finite Mu without changing a single probability.
	top := sums[0].mu
	for _, s := range sums[1:] {
		top = max(top, s.mu)
	}
	e := make([]float64, 3*k)
	e, sumQ, a := e[:k], e[k:2*k], e[2*k:]
	for i, s := range sums {
		e[i] = math.Exp((s.mu - top) / c)
	}
	for q := range k {
		for s := range k {
			if above(q, s) {
				sumQ[q] += e[s] // C_q: the teams ranked at or below q
			}
			if tied(q, s) {
				a[q]++ // A_q: the teams sharing q's rank
			}
		}
	}

	out := make([][]Rating, k)
	for i, players := range teams {
		omega, delta := 0.0, 0.0
		for q := range k {
			if !above(q, i) {
				continue
			}
			p := e[i] / sumQ[q] // P(i ranks first among C_q)
			delta += p * (1 - p) / a[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
		}
		s := sums[i]
		gamma := math.Sqrt(s.sigmaSq) / c
		omega *= s.sigmaSq / c
		delta *= gamma * s.sigmaSq / (c * c)
		out[i] = make([]Rating, len(players))
		for j, r := range players {
			sigmaSq := r.Sigma*r.Sigma + tauSq
			share := sigmaSq / s.sigmaSq
			next := Rating{
				Mu:    r.Mu + share*omega,
				Sigma: math.Sqrt(sigmaSq * max(1-share*delta, m.Kappa)),
			}
			if !finite(next.Mu) || !finite(next.Sigma) {
				return nil, fmt.Errorf("%w: team %d player %d's update overflowed", ErrNotFinite, i, j)
			}
			out[i][j] = next
		}
	}
	return out, nil
}
