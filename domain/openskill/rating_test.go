package openskill

import (
	"errors"
	"math"
	"testing"
)

func TestOrdinal(t *testing.T) {
	if got := Default().New().Ordinal(); got != 0 {
		t.Fatalf("a new player's rating is %v, want 0", got)
	}
	if got := (Rating{Mu: 30, Sigma: 2.5}).Ordinal(); got != 22.5 {
		t.Fatalf("got %v, want 22.5", got)
	}
}

func TestProvisional(t *testing.T) {
	cases := []struct {
		r       Rating
		matches int
		want    bool
	}{
		{Default().New(), 0, true},
		{Rating{30, 5}, 9, true},
		{Rating{30, 5}, 10, false},
		{Rating{30, 6}, 10, false},
		{Rating{30, 6.01}, 40, true},
	}
	for _, tc := range cases {
		if got := Provisional(tc.r, tc.matches); got != tc.want {
			t.Errorf("Provisional(%v, %d) = %v, want %v", tc.r, tc.matches, got, tc.want)
		}
	}
}

func TestRateRefuses(t *testing.T) {
	r := Default().New()
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name   string
		teams  [][]Rating
		scores []float64
		want   error
	}{
		{"no teams", nil, nil, ErrTooFewTeams},
		{"one team", [][]Rating{{r, r}}, []float64{1}, ErrTooFewTeams},
		{"empty team", [][]Rating{{r}, {}}, []float64{1, 0}, ErrEmptyTeam},
		{"too few scores", [][]Rating{{r}, {r}}, []float64{1}, ErrMismatch},
		{"too many scores", [][]Rating{{r}, {r}}, []float64{1, 2, 3}, ErrMismatch},
		{"NaN score", [][]Rating{{r}, {r}}, []float64{nan, 0}, ErrNotFinite},
		{"infinite score", [][]Rating{{r}, {r}}, []float64{0, inf}, ErrNotFinite},
		{"NaN mu", [][]Rating{{r}, {{nan, 1}}}, []float64{1, 0}, ErrNotFinite},
		{"infinite sigma", [][]Rating{{{25, inf}}, {r}}, []float64{1, 0}, ErrNotFinite},
		{"zero sigma", [][]Rating{{{25, 0}}, {r}}, []float64{1, 0}, ErrNotFinite},
		{"negative sigma", [][]Rating{{r}, {{25, -1}}}, []float64{1, 0}, ErrNotFinite},
		{"overflowing sigma", [][]Rating{{{25, 1e200}}, {r}}, []float64{1, 0}, ErrNotFinite},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rate(tc.teams, tc.scores)
			if !errors.Is(err, tc.want) || got != nil {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	if _, err := Default().RateRanks([][]Rating{{r}, {r}}, []int{1}); !errors.Is(err, ErrMismatch) {
		t.Fatalf("RateRanks with one rank: %v", err)
	}
}

// A huge Mu would overflow exp(mu/c) without the shift; the update stays finite and sane.
func TestRateHugeMu(t *testing.T) {
	got, err := Rate([][]Rating{{{1e6, 8}}, {{1e6 - 100, 8}}}, []float64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got[0][0].Mu >= 1e6 || got[1][0].Mu <= 1e6-100 {
		t.Fatalf("upset moved the wrong way: %v", got)
	}
}

func TestModelValidate(t *testing.T) {
	for _, bad := range []func(*Model){
		func(m *Model) { m.Sigma = 0 },
		func(m *Model) { m.Beta = 0 },
		func(m *Model) { m.Tau = -1 },
		func(m *Model) { m.Kappa = 0 },
		func(m *Model) { m.Kappa = 2 },
		func(m *Model) { m.Mu = math.NaN() },
		func(m *Model) { m.Beta = math.Inf(1) },
	} {
		m := Default()
		bad(&m)
		if err := m.Validate(); !errors.Is(err, ErrBadModel) {
			t.Errorf("%+v: Validate() = %v", m, err)
		}
		r := Default().New()
		if _, err := m.Rate([][]Rating{{r}, {r}}, []float64{1, 0}); !errors.Is(err, ErrBadModel) {
			t.Errorf("%+v: Rate() = %v", m, err)
		}
	}
}

// TestWorkedExample checks the worked example of docs/ratings.md: two new players, a win and
// a tie, every figure there to its seven decimals.
func TestWorkedExample(t *testing.T) {
	r := Default().New()
	win, err := Rate([][]Rating{{r}, {r}}, []float64{250, 180})
	if err != nil {
		t.Fatal(err)
	}
	tie, err := Rate([][]Rating{{r}, {r}}, []float64{200, 200})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"winner mu", win[0][0].Mu, 27.6353895},
		{"loser mu", win[1][0].Mu, 22.3646105},
		{"winner sigma", win[0][0].Sigma, 8.0659014},
		{"loser sigma", win[1][0].Sigma, 8.0659014},
		{"winner rating", win[0][0].Ordinal(), 3.4376853},
		{"loser rating", win[1][0].Ordinal(), -1.8330937},
		{"tied mu", tie[0][0].Mu, 25},
		{"tied sigma", tie[1][0].Sigma, 8.0659014},
		{"tied rating", tie[0][0].Ordinal(), 0.8022958},
	} {
		if math.Abs(c.got-c.want) > 5e-8 {
			t.Errorf("%s = %.9f, docs/ratings.md says %.7f", c.name, c.got, c.want)
		}
	}
}
