package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// logger appends events to a log and folds them as it goes.
type logger struct {
	t      testing.TB
	st     *State
	events []Event
	at     time.Time
}

func newLogger(t testing.TB, spec Spec) *logger {
	l := &logger{t: t, st: &State{ID: "t1"}, at: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
	if err := spec.Check(); err != nil {
		t.Fatal(err)
	}
	l.add(TypeCreated, Created{Spec: spec, Organiser: "org", OrganiserName: "Org"})
	return l
}

func (l *logger) add(typ EventType, data any) {
	l.t.Helper()
	l.at = l.at.Add(time.Second)
	e, err := NewEvent(len(l.events)+1, typ, l.at, data)
	if err != nil {
		l.t.Fatal(err)
	}
	if err := l.st.Apply(e); err != nil {
		l.t.Fatalf("apply %s: %v", typ, err)
	}
	l.events = append(l.events, e)
}

// playRound pairs the next round, starts a match per table and ends each with score.
func (l *logger) playRound(score func(r, t int, seats []string) []int, facts map[string]MatchFacts) {
	n := len(l.st.Rounds) + 1
	p := l.st.NextPairing()
	seed := sha256.Sum256(fmt.Appendf(nil, "seed %d", n))
	commit := ""
	if l.st.Spec.Duplicate {
		c := sha256.Sum256(seed[:])
		commit = hex.EncodeToString(c[:])
	}
	l.add(TypeRound, RoundStarted{Round: n, Pairing: p, Commitment: commit})
	for ti, tb := range p.Tables {
		id := fmt.Sprintf("m%d-%d", n, ti)
		l.add(TypeTable, TableStarted{Round: n, Table: ti, Match: id})
		sc := score(n, ti, tb.Seats)
		l.add(TypeResult, Result{Round: n, Table: ti, Match: id, Seats: tb.Seats, Scores: sc})
		if facts != nil {
			f := MatchFacts{ID: id, Players: tb.Seats, Commitment: commit, Finished: true, Scores: sc}
			if commit != "" {
				f.Seed = hex.EncodeToString(seed[:])
			}
			facts[id] = f
		}
	}
	re := RoundEnded{Round: n}
	if commit != "" {
		re.Seed = hex.EncodeToString(seed[:])
	}
	l.add(TypeRoundEnd, re)
}

// runTournament enters n players with random ratings and plays every round with random
// scores (a side reaching the target, the others below it).
func runTournament(t *testing.T, spec Spec, n int, rng *rand.Rand) *State {
	l := newLogger(t, spec)
	for _, id := range ids(n) {
		l.add(TypeEntered, Entrant{Player: id, Name: id, Rating: float64(rng.IntN(3000)) / 100})
	}
	l.add(TypeStarted, Started{Entrants: ids(n), Rounds: spec.PlannedRounds(n)})
	for range spec.PlannedRounds(n) {
		l.playRound(func(_, _ int, seats []string) []int { return randomScores(spec.Format, rng) }, nil)
	}
	l.add(TypeEnded, Ended{Standings: l.st.Standings()})
	return l.st
}

func randomScores(f Format, rng *rand.Rand) []int {
	n := f.TableSize()
	sides := make([]int, f.Sides())
	win := rng.IntN(len(sides))
	for s := range sides {
		sides[s] = 5 * rng.IntN(50)
	}
	sides[win] = 250
	out := make([]int, n)
	for s := range out {
		out[s] = sides[f.SideOf(s)]
	}
	return out
}
