package openskill

import (
	"errors"
	"fmt"
	"math"
)

// Rating is one player's skill belief: a normal distribution with mean Mu and standard
// deviation Sigma (docs/ratings.md, "Symbols").
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Z is how many standard deviations the displayed rating sits below Mu: the true skill is
// above it with about 99.87% confidence (docs/ratings.md, "The displayed rating").
const Z = 3

// Ordinal is the displayed rating, Mu - 3 Sigma (OpenSkill's "ordinal"): a conservative
// estimate that rises as a player wins and as the model grows sure of them.
func (r Rating) Ordinal() float64 { return r.Mu - Z*r.Sigma }

// The thresholds of the provisional rule (docs/ratings.md, "Provisional").
const (
	// ProvisionalMatches is how many rated matches of a format a player needs first.
	ProvisionalMatches = 10
	// ProvisionalSigma is the Sigma above which a rating is still too unsure to rank.
	ProvisionalSigma = 6.0
)

// Provisional reports whether a rating built from matches rated matches is still too new to
// show on a leaderboard: fewer than ProvisionalMatches, or Sigma above ProvisionalSigma.
func Provisional(r Rating, matches int) bool {
	return matches < ProvisionalMatches || r.Sigma > ProvisionalSigma
}

// Model holds the parameters of the Weng-Lin update (docs/ratings.md, "Parameters"). Default
// returns OpenSkill's; other values exist so that the reference fixtures, made with other
// settings, can be checked.
type Model struct {
	// Mu and Sigma are a new player's prior belief.
	Mu, Sigma float64
	// Beta is the spread of one performance around its skill.
	Beta float64
	// Tau is the additive dynamics factor: Sigma^2 += Tau^2 before every update, so a
	// rating never freezes. Zero turns it off.
	Tau float64
	// Kappa is the floor of the factor that shrinks Sigma^2, so it stays positive.
	Kappa float64
}

// Default is OpenSkill's Plackett-Luce model: mu0 = 25, sigma0 = 25/3, beta = 25/6,
// tau = 25/300, kappa = 0.0001.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, Kappa: 0.0001}
}

// New is a new player's rating under m: its prior (Mu, Sigma).
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// The errors of a match that cannot be rated; each is wrapped with the detail.
var (
	// ErrTooFewTeams: a match needs at least two sides to rank.
	ErrTooFewTeams = errors.New("rating: a match needs at least two teams")
	// ErrEmptyTeam: every side has at least one player.
	ErrEmptyTeam = errors.New("rating: a team has no players")
	// ErrMismatch: one score (or rank) per team.
	ErrMismatch = errors.New("rating: the number of scores or ranks differs from the number of teams")
	// ErrNotFinite: a Mu, Sigma or score is NaN or infinite, or a Sigma is not positive.
	ErrNotFinite = errors.New("rating: a value is not a finite number in range")
	// ErrBadModel: a Model parameter is out of range.
	ErrBadModel = errors.New("rating: the model's parameters are out of range")
)

// Validate reports whether m's parameters can rate a match: all finite, Sigma, Beta and
// Kappa positive, Tau not negative, Kappa at most 1.
func (m Model) Validate() error {
	for _, v := range []float64{m.Mu, m.Sigma, m.Beta, m.Tau, m.Kappa} {
		if !finite(v) {
			return fmt.Errorf("%w: %v is not finite", ErrBadModel, v)
		}
	}
	if m.Sigma <= 0 || m.Beta <= 0 || m.Tau < 0 || m.Kappa <= 0 || m.Kappa > 1 {
		return fmt.Errorf("%w: need sigma > 0, beta > 0, tau >= 0, 0 < kappa <= 1 (got %+v)", ErrBadModel, m)
	}
	return nil
}

// Rate rates one match under the Default model; see Model.Rate.
func Rate(teams [][]Rating, scores []float64) ([][]Rating, error) {
	return Default().Rate(teams, scores)
}

// Rate rates one match: teams are its sides (each one or more players' ratings before the
// match) and scores their final scores, the higher ranking first and equal scores sharing a
// rank (docs/ratings.md, "The update" and "Ties"). It returns every player's new rating in
// the shape of teams; teams is not modified.
func (m Model) Rate(teams [][]Rating, scores []float64) ([][]Rating, error) {
	if len(scores) != len(teams) {
		return nil, fmt.Errorf("%w: %d teams, %d scores", ErrMismatch, len(teams), len(scores))
	}
	for i, s := range scores {
		if !finite(s) {
			return nil, fmt.Errorf("%w: team %d's score is %v", ErrNotFinite, i, s)
		}
	}
	return m.rate(teams, func(q, i int) bool { return scores[q] >= scores[i] }, func(q, i int) bool { return scores[q] == scores[i] })
}

// RateRanks is Rate with the places given instead of scores: ranks[i] is team i's place, 1
// first; equal ranks are a tie. Only the order of the ranks matters.
func (m Model) RateRanks(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if len(ranks) != len(teams) {
		return nil, fmt.Errorf("%w: %d teams, %d ranks", ErrMismatch, len(teams), len(ranks))
	}
	return m.rate(teams, func(q, i int) bool { return ranks[q] <= ranks[i] }, func(q, i int) bool { return ranks[q] == ranks[i] })
}

// check refuses what the update cannot take: fewer than two teams, an empty team, a value
// that is not finite or a Sigma that is not positive.
func check(teams [][]Rating) error {
	if len(teams) < 2 {
		return fmt.Errorf("%w: got %d", ErrTooFewTeams, len(teams))
	}
	for i, team := range teams {
		if len(team) == 0 {
			return fmt.Errorf("%w: team %d", ErrEmptyTeam, i)
		}
		for j, r := range team {
			if !finite(r.Mu) || !finite(r.Sigma) || r.Sigma <= 0 {
				return fmt.Errorf("%w: team %d player %d has mu %v, sigma %v", ErrNotFinite, i, j, r.Mu, r.Sigma)
			}
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
