package openskill

import (
	"math"
	"testing"
)

// tolerance is how close a result must come to the reference fixtures (docs/ratings.md,
// "Checked against"). They hold doubles printed in full and this package agrees with them to
// 1e-12; 1e-6 leaves room for another order of additions.
const tolerance = 1e-6

// noTau is OpenSkill's model without the dynamics step: the fixtures of openskill.js's
// src/models/__tests__/plackett-luce.test.ts call the model function directly, and the
// dynamics step lives in its rate().
func noTau() Model {
	m := Default()
	m.Tau = 0
	return m
}

// fixturePlayer is the prior of openskill.py's tests/models/data/plackettluce.json ("model"),
// vendored verbatim into openskill.js as src/__tests__/data/plackettluce.json. The model's
// beta, tau and kappa stay OpenSkill's defaults there, and tau is applied.
var fixturePlayer = Rating{Mu: 20.35125162611535, Sigma: 8.33148112355601}

// repeat is a team of n players with the same rating.
func repeat(r Rating, n int) []Rating {
	t := make([]Rating, n)
	for i := range t {
		t[i] = r
	}
	return t
}

// ffa is a free-for-all of n players with the same rating.
func ffa(r Rating, n int) [][]Rating {
	teams := make([][]Rating, n)
	for i := range teams {
		teams[i] = []Rating{r}
	}
	return teams
}

// firstToLast ranks n teams in the order given, as the reference does when it gets no ranks.
func firstToLast(n int) []int {
	ranks := make([]int, n)
	for i := range ranks {
		ranks[i] = i + 1
	}
	return ranks
}

func assertTeams(t *testing.T, got, want [][]Rating) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d teams, want %d", len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("team %d: got %d players, want %d", i, len(got[i]), len(want[i]))
		}
		for j, w := range want[i] {
			g := got[i][j]
			if math.Abs(g.Mu-w.Mu) > tolerance || math.Abs(g.Sigma-w.Sigma) > tolerance {
				t.Errorf("team %d player %d: got (%.15f, %.15f), want (%.15f, %.15f)", i, j, g.Mu, g.Sigma, w.Mu, w.Sigma)
			}
		}
	}
}

func rateRanks(t *testing.T, m Model, teams [][]Rating, ranks []int) [][]Rating {
	t.Helper()
	got, err := m.RateRanks(teams, ranks)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Fixtures from philihp/openskill.js, src/models/__tests__/plackett-luce.test.ts: new
// players at the defaults, the model alone (no tau), teams ranked in the order given.
func TestFixtureFreeForAllWithoutTau(t *testing.T) {
	r := Default().New()
	cases := []struct {
		name string
		want [][]Rating
	}{
		{"1v1", [][]Rating{
			{{27.63523138347365, 8.065506316323548}},
			{{22.36476861652635, 8.065506316323548}},
		}},
		{"3p", [][]Rating{
			{{27.868876552746237, 8.204837030780652}},
			{{25.717219138186557, 8.057829747583874}},
			{{21.413904309067206, 8.057829747583874}},
		}},
		{"4p", [][]Rating{
			{{27.795084971874736, 8.263160757613477}},
			{{26.552824984374855, 8.179213704945203}},
			{{24.68943500312503, 8.083731307186588}},
			{{20.96265504062538, 8.083731307186588}},
		}},
		{"5p", [][]Rating{
			{{27.666666666666668, 8.290556877154474}},
			{{26.833333333333332, 8.240145629781066}},
			{{25.72222222222222, 8.179996679645559}},
			{{24.055555555555557, 8.111796013701358}},
			{{20.72222222222222, 8.111796013701358}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.want)
			assertTeams(t, rateRanks(t, noTau(), ffa(r, n), firstToLast(n)), tc.want)
		})
	}
}

// Same file, "3 teams different sized players": teams of 3, 1 and 2 new players.
func TestFixtureUnevenTeamsWithoutTau(t *testing.T) {
	r := Default().New()
	teams := [][]Rating{repeat(r, 3), {r}, repeat(r, 2)}
	want := [][]Rating{
		repeat(Rating{25.939870821784513, 8.247641552260456}, 3),
		{{27.21366020491262, 8.274321317985242}},
		repeat(Rating{21.84646897330287, 8.213058173195341}, 2),
	}
	assertTeams(t, rateRanks(t, noTau(), teams, firstToLast(3)), want)
}
