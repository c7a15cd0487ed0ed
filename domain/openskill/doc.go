// Package openskill is the skill model behind the leaderboards: the Weng-Lin Bayesian
// approximation with the Plackett-Luce model (R. C. Weng and C.-J. Lin, "A Bayesian
// Approximation Method for Online Ranking", JMLR 12 (2011) 267-300, Algorithm 4), with the
// parameters and conventions of OpenSkill. A player's skill is a normal belief (Mu, Sigma); a
// match's sides are its teams, ranked by their final scores; one call rates one match.
//
// The formulas, parameters, a worked example, the tie rule, the formats and the provisional
// rule are in docs/ratings.md. The package imports nothing but the standard library.
package openskill
