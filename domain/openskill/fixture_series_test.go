package openskill

import "testing"

// openskill.js, src/__tests__/parity-plackett-luce.test.ts, "matches Python for a 16-match
// doubles tournament with non-default mu/sigma": eight players from (0, 1), each match's new
// ratings feeding the next. Beta, tau and kappa stay OpenSkill's defaults, as in
// openskill.py, where they do not follow mu and sigma; with sigma this small the dynamics step
// outweighs what the games teach, so every sigma ends above 1.
func TestFixtureDoublesSeries(t *testing.T) {
	m := Default()
	m.Mu, m.Sigma = 0, 1
	matches := []struct {
		a, b  [2]int
		ranks []int
	}{
		{[2]int{1, 0}, [2]int{5, 2}, []int{2, 1}},
		{[2]int{3, 1}, [2]int{6, 0}, []int{2, 1}},
		{[2]int{1, 4}, [2]int{3, 0}, []int{2, 1}},
		{[2]int{0, 7}, [2]int{1, 5}, []int{1, 2}},
		{[2]int{0, 4}, [2]int{1, 6}, []int{1, 2}},
		{[2]int{6, 1}, [2]int{3, 4}, []int{2, 1}},
		{[2]int{4, 6}, [2]int{0, 1}, []int{1, 2}},
		{[2]int{6, 2}, [2]int{7, 1}, []int{1, 2}},
		{[2]int{3, 6}, [2]int{2, 0}, []int{2, 1}},
		{[2]int{1, 3}, [2]int{0, 2}, []int{2, 1}},
		{[2]int{5, 4}, [2]int{2, 0}, []int{2, 1}},
		{[2]int{7, 4}, [2]int{0, 3}, []int{2, 1}},
		{[2]int{1, 4}, [2]int{2, 6}, []int{2, 1}},
		{[2]int{5, 4}, [2]int{1, 0}, []int{1, 2}},
		{[2]int{0, 5}, [2]int{1, 2}, []int{1, 2}},
		{[2]int{1, 6}, [2]int{7, 0}, []int{2, 1}},
	}
	players := repeat(m.New(), 8)
	for _, x := range matches {
		teams := [][]Rating{
			{players[x.a[0]], players[x.a[1]]},
			{players[x.b[0]], players[x.b[1]]},
		}
		next := rateRanks(t, m, teams, x.ranks)
		players[x.a[0]], players[x.a[1]] = next[0][0], next[0][1]
		players[x.b[0]], players[x.b[1]] = next[1][0], next[1][1]
	}
	assertTeams(t, [][]Rating{players}, [][]Rating{{
		{0.5567026846130032, 1.034158775793176},
		{-1.040809215541878, 1.0341609940620864},
		{0.39069662848779696, 1.018714971172244},
		{0.00418100716362646, 1.0160852090650665},
		{0.004454102509053343, 1.0213323603679194},
		{0.08064393443147759, 1.0134445163810648},
		{0.0008019558612562538, 1.0213325142564154},
		{-0.004756003021986366, 1.0107885446332125},
	}})
}
