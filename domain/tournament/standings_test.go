package tournament

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func res(round, table int, a, b string, sa, sb int) Result {
	return Result{Round: round, Table: table, Match: "m", Seats: []string{a, b}, Scores: []int{sa, sb}}
}

// TestStandingsByHand: four players over three rounds, the figures worked out by hand in the
// comments; A and D tie on points and Buchholz and Sonneborn-Berger puts D first.
func TestStandingsByHand(t *testing.T) {
	rounds := []RoundRecord{
		{Results: []Result{res(1, 0, "A", "B", 250, 100), res(1, 1, "C", "D", 250, 200)}},
		{Results: []Result{res(2, 0, "A", "C", 250, 0), res(2, 1, "B", "D", 50, 250)}},
		{Results: []Result{res(3, 0, "B", "C", 250, 245), res(3, 1, "D", "A", 250, 5)}},
	}
	got := Standings(Format2P, false, []string{"A", "B", "C", "D"}, rounds, StandardTieBreaks()...)
	// Points: A 2, B 1, C 1, D 2. Buchholz: A = B+C+D = 1+1+2 = 4, D = C+B+A = 4,
	// B = A+D+C = 5, C = D+A+B = 5. Sonneborn-Berger (the points of those beaten): A = B+C = 2,
	// D = B+A = 3, B = C = 1, C = D = 2.
	want := []Standing{
		{Rank: 1, Entrant: "D", Points: 2, MatchPoints: 2, Wins: 2, Buchholz: 4, SonnebornBerger: 3, Played: 3},
		{Rank: 2, Entrant: "A", Points: 2, MatchPoints: 2, Wins: 2, Buchholz: 4, SonnebornBerger: 2, Played: 3},
		{Rank: 3, Entrant: "C", Points: 1, MatchPoints: 1, Wins: 1, Buchholz: 5, SonnebornBerger: 2, Played: 3},
		{Rank: 4, Entrant: "B", Points: 1, MatchPoints: 1, Wins: 1, Buchholz: 5, SonnebornBerger: 1, Played: 3},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("standings\n got %+v\nwant %+v", got, want)
	}
}

// TestByeCountsAWin: a bye is one match point and no Buchholz; in duplicate it scores 0.
func TestByeCountsAWin(t *testing.T) {
	rounds := []RoundRecord{{Results: []Result{res(1, 0, "A", "B", 250, 100)}, Byes: []string{"C"}}}
	got := Standings(Format2P, false, []string{"A", "B", "C"}, rounds, StandardTieBreaks()...)
	if got[1].Entrant != "C" || got[1].Points != 1 || got[1].Byes != 1 || got[1].Buchholz != 0 || got[1].Played != 0 {
		t.Fatalf("bye: %+v", got)
	}
	dup := Standings(Format2P, true, []string{"A", "B", "C"}, rounds, StandardTieBreaks()...)
	if i := slices.IndexFunc(dup, func(s Standing) bool { return s.Entrant == "C" }); dup[i].Points != 0 || dup[i].MatchPoints != 1 {
		t.Fatalf("duplicate bye: %+v", dup[i])
	}
}

// TestDuplicateScores: two tables held the same cards; each seat is scored against the same
// seat at the other table: A's +150 less C's +50 is +100, and so on, summing to zero.
func TestDuplicateScores(t *testing.T) {
	got := DuplicateScores(Format2P, []Result{res(1, 0, "A", "B", 250, 100), res(1, 1, "C", "D", 250, 200)})
	want := [][]float64{{100, -100}, {-100, 100}}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("duplicate scores %v, want %v", got, want)
		}
	}
	rounds := []RoundRecord{{Results: []Result{res(1, 0, "A", "B", 250, 100), res(1, 1, "C", "D", 250, 200)}}}
	st := Standings(Format2P, true, []string{"A", "B", "C", "D"}, rounds, StandardTieBreaks()...)
	// A and D +100 (A first: equal in everything, entry order), then C and B at -100.
	if st[0].Entrant != "A" || st[0].Points != 100 || st[1].Entrant != "D" || st[1].Points != 100 || st[3].Points != -100 {
		t.Fatalf("duplicate standings %+v", st)
	}
}

// TestMarginsAndPointsOfTables: the other formats' match points and margins.
func TestMarginsAndPointsOfTables(t *testing.T) {
	if got := MatchPoints(Format3P, []int{200, 100, 50}); !slices.Equal(got, []float64{1, 0.5, 0}) {
		t.Fatalf("3p points %v", got)
	}
	if got := Margins(Format3P, []int{200, 100, 50}); !slices.Equal(got, []float64{125, -25, -100}) {
		t.Fatalf("3p margins %v", got)
	}
	if got := MatchPoints(Format2V2, []int{250, 100, 250, 100}); !slices.Equal(got, []float64{1, 0, 1, 0}) {
		t.Fatalf("2v2 points %v", got)
	}
	if got := Margins(Format2V2, []int{250, 100, 250, 100}); !slices.Equal(got, []float64{150, -150, 150, -150}) {
		t.Fatalf("2v2 margins %v", got)
	}
	if got := MatchPoints(Format4P, []int{200, 100, 100, 0}); !slices.Equal(got, []float64{1, 0.5, 0.5, 0}) {
		t.Fatalf("4p points %v", got)
	}
}

// TestSwissTablesOfFour: a 2v2 Swiss of 10 over 3 rounds seats 8 and gives 2 byes a round,
// and the standings list all 10.
func TestSwissTablesOfFour(t *testing.T) {
	st := runTournament(t, Spec{Name: "pairs", Format: Format2V2, System: Swiss, Rounds: 3}, 10, rand.New(rand.NewPCG(3, 3)))
	for _, r := range st.Rounds {
		checkPairing(t, r.Pairing, st.Playing, 4)
	}
	if len(st.Final) != 10 {
		t.Fatalf("%d standings", len(st.Final))
	}
}
