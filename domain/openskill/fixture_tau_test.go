package openskill

import "testing"

// Fixtures from openskill.py's test_rate (tests/models/weng_lin/test_plackett_luce.py, values
// in tests/models/data/plackettluce.json), which philihp/openskill.js asserts exactly in
// src/__tests__/parity-plackett-luce.test.ts: players at fixturePlayer, OpenSkill's beta,
// kappa and tau, the dynamics step applied.
func fixtureModel() Model {
	m := Default()
	m.Mu, m.Sigma = fixturePlayer.Mu, fixturePlayer.Sigma
	return m
}

// "normal": one player against a team of two, in the order given.
func TestFixtureOneAgainstTwoWithTau(t *testing.T) {
	r := fixtureModel().New()
	got := rateRanks(t, fixtureModel(), [][]Rating{{r}, repeat(r, 2)}, []int{1, 2})
	assertTeams(t, got, [][]Rating{
		{{23.855123082692877, 8.22447878583752}},
		repeat(Rating{16.84738016953782, 8.179571171464575}, 2),
	})
}

// "scores": scores [1, 2], so the pair wins.
func TestFixtureScoresWithTau(t *testing.T) {
	r := fixtureModel().New()
	got, err := fixtureModel().Rate([][]Rating{{r}, repeat(r, 2)}, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	assertTeams(t, got, [][]Rating{
		{{19.4016459546452, 8.22447878583752}},
		repeat(Rating{21.300857297585495, 8.179571171464575}, 2),
	})
}

// "ranks": four teams of 1, 2, 1 and 2 players finishing 2nd, 1st, 4th and 3rd.
func TestFixtureRanksWithTau(t *testing.T) {
	r := fixtureModel().New()
	teams := [][]Rating{{r}, repeat(r, 2), {r}, repeat(r, 2)}
	got := rateRanks(t, fixtureModel(), teams, []int{2, 1, 4, 3})
	assertTeams(t, got, [][]Rating{
		{{22.35555943890167, 8.265434830225024}},
		repeat(Rating{22.373451456616035, 8.258479912445537}, 2),
		{{18.311159777900297, 8.219170401234347}},
		repeat(Rating{18.364835831043397, 8.112716571808326}, 2),
	})
}

// "ties": teams of 1, 2 and 3 players ranked [1, 2, 1]: the single player and the trio share
// first place.
func TestFixtureTieWithTau(t *testing.T) {
	r := fixtureModel().New()
	teams := [][]Rating{{r}, repeat(r, 2), repeat(r, 3)}
	got := rateRanks(t, fixtureModel(), teams, []int{1, 2, 1})
	assertTeams(t, got, [][]Rating{
		{{21.63766806988004, 8.310709773172306}},
		repeat(Rating{19.53956360838512, 8.268148437657915}, 2),
		repeat(Rating{19.87652320008089, 8.237522411103104}, 3),
	})
	// The same tie given as scores: equal scores share a rank.
	byScore, err := fixtureModel().Rate(teams, []float64{61, 40, 61})
	if err != nil {
		t.Fatal(err)
	}
	assertTeams(t, byScore, got)
}

// openskill.js, src/__tests__/parity-plackett-luce.test.ts, "matches Python for a single
// doubles match at default hyperparameters": a 2v2 of experienced players and a new one, under
// Default (tau applied).
func TestFixtureDefaults2v2(t *testing.T) {
	teams := [][]Rating{
		{{29.182, 4.782}, {27.174, 4.922}},
		{{16.672, 6.217}, {25.0, 25.0 / 3}},
	}
	got, err := Rate(teams, []float64{61, 55})
	if err != nil {
		t.Fatal(err)
	}
	assertTeams(t, got, [][]Rating{
		{{29.607340941337068, 4.755311788972862}, {27.624602782532037, 4.892807828777459}},
		{{15.953170429143093, 6.125902065139878}, {23.70858117648013, 8.111707446126035}},
	})
}

// Same file, "matches Python for a four-way free-for-all at default hyperparameters": the
// same four players each alone, finishing in the order given, under Default.
func TestFixtureDefaults4p(t *testing.T) {
	teams := [][]Rating{{{29.182, 4.782}}, {{27.174, 4.922}}, {{16.672, 6.217}}, {{25.0, 25.0 / 3}}}
	got, err := Rate(teams, []float64{61, 40, 25, 10})
	if err != nil {
		t.Fatal(err)
	}
	assertTeams(t, got, [][]Rating{
		{{30.210227447000438, 4.765617924939384}},
		{{27.644725221915632, 4.883479590134575}},
		{{17.4036218889969, 6.101259408259549}},
		{{19.21460876538932, 7.854669920480409}},
	})
}

// TestDefaults pins OpenSkill's defaults (openskill.py's test_model_defaults, and tau =
// 25/300 from its PlackettLuce constructor).
func TestDefaults(t *testing.T) {
	want := Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, Kappa: 0.0001}
	if got := Default(); got != want {
		t.Fatalf("Default() = %+v, want %+v", got, want)
	}
	if got := Default().New(); got != (Rating{25, 25.0 / 3}) {
		t.Fatalf("New() = %+v", got)
	}
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
}
