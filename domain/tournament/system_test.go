package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%02d", i)
	}
	return out
}

// meetings counts how often each pair shared a table.
type meetings map[[2]string]int

func (m meetings) add(p Pairing) {
	for _, t := range p.Tables {
		for _, a := range t.Seats {
			for _, b := range t.Seats {
				if a != b {
					m[[2]string{a, b}]++
				}
			}
		}
	}
}

func (m meetings) met(a, b string) bool { return m[[2]string{a, b}] > 0 }

// repeats counts the pairs of p that met before.
func (m meetings) repeats(p Pairing) int {
	n := 0
	for _, t := range p.Tables {
		for i, a := range t.Seats {
			for _, b := range t.Seats[i+1:] {
				if m.met(a, b) {
					n++
				}
			}
		}
	}
	return n
}

func checkPairing(t *testing.T, p Pairing, players []string, size int) {
	t.Helper()
	seen := map[string]bool{}
	for _, tb := range p.Tables {
		if len(tb.Seats) != size {
			t.Fatalf("a table of %d seats, want %d: %v", len(tb.Seats), size, p)
		}
		for _, s := range tb.Seats {
			if seen[s] {
				t.Fatalf("%s seated twice: %v", s, p)
			}
			seen[s] = true
		}
	}
	for _, b := range p.Byes {
		if seen[b] {
			t.Fatalf("%s both plays and sits out: %v", b, p)
		}
		seen[b] = true
	}
	if len(seen) != len(players) || len(p.Byes) != len(players)%size {
		t.Fatalf("pairing covers %d of %d with %d byes: %v", len(seen), len(players), len(p.Byes), p)
	}
}

// TestEverySystemRunsATournament holds every registered system to what the engine, the audit
// and the API need of one, whatever its pairing: for each format its Check takes (with or
// without rounds) and fields of several sizes, every round seats tables of the format with no
// entrant twice and none but the entrants, the tournament plays the rounds Rounds promised,
// its log audits (the pairings re-derived from it), and the standings rank every entrant once.
// A new system's file is run here by registering itself.
func TestEverySystemRunsATournament(t *testing.T) {
	if len(Systems()) == 0 {
		t.Fatal("no system is registered")
	}
	for _, name := range Systems() {
		rules, ok := System(name).Rules()
		if !ok || rules.Name() != System(name) {
			t.Fatalf("system %q is registered as %v", name, rules)
		}
		formats := 0
		for _, f := range []Format{Format2P, Format3P, Format4P, Format2V2} {
			spec := Spec{Name: name, Format: f, System: System(name), Rounds: 3}
			if spec.Check() != nil {
				spec = Spec{Name: name, Format: f, System: System(name)}
				if spec.Check() != nil {
					continue
				}
			}
			formats++
			size := f.TableSize()
			for _, n := range []int{size, size + 1, 2*size + 1, 11} {
				if n > spec.MaxEntries {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%d", name, f, n), func(t *testing.T) { playThrough(t, spec, n) })
			}
		}
		if formats == 0 {
			t.Errorf("system %s runs no format", name)
		}
	}
}

// playThrough plays a tournament of spec with n entrants and random scores, checking each
// round's tables, the rounds played, the audit and the standings.
func playThrough(t *testing.T, spec Spec, n int) {
	rng := rand.New(rand.NewPCG(uint64(n), 54))
	l := newLogger(t, spec)
	for _, id := range ids(n) {
		l.add(TypeEntered, Entrant{Player: id, Name: id, Rating: float64(rng.IntN(3000)) / 100})
	}
	rounds := spec.PlannedRounds(n)
	l.add(TypeStarted, Started{Entrants: ids(n), Rounds: rounds})
	facts := map[string]MatchFacts{}
	for range rounds {
		l.playRound(func(_, _ int, _ []string) []int { return randomScores(spec.Format, rng) }, facts)
		p := l.st.Rounds[len(l.st.Rounds)-1].Pairing
		seen := map[string]bool{}
		for _, tb := range p.Tables {
			if len(tb.Seats) != spec.Format.TableSize() {
				t.Fatalf("round %d seats a table of %d: %v", len(l.st.Rounds), len(tb.Seats), p)
			}
			for _, id := range tb.Seats {
				if seen[id] || !slices.Contains(l.st.Playing, id) {
					t.Fatalf("round %d seats %s twice or not entered: %v", len(l.st.Rounds), id, p)
				}
				seen[id] = true
			}
		}
	}
	l.add(TypeEnded, Ended{Standings: l.st.Standings()})
	links, err := Chain("", l.events)
	if err != nil {
		t.Fatal(err)
	}
	if rep := Audit("t1", links, facts); !rep.OK {
		t.Fatalf("the audit fails: %+v", rep.Checks)
	}
	ranked := map[string]bool{}
	for i, s := range l.st.Final {
		if s.Rank != i+1 || ranked[s.Entrant] {
			t.Fatalf("standing %d: %+v", i, s)
		}
		ranked[s.Entrant] = true
	}
	if len(ranked) != n || len(l.st.Rounds) != rounds {
		t.Fatalf("%d ranked of %d, %d rounds of %d", len(ranked), n, len(l.st.Rounds), rounds)
	}
}

// TestUnknownSystemRefused: a spec of a system no file registered is refused, naming the
// systems there are, and a log of one does not fold.
func TestUnknownSystemRefused(t *testing.T) {
	spec := Spec{Name: "ko", Format: Format2P, System: "knockout"}
	err := spec.Check()
	if err == nil {
		t.Fatal("a knockout spec passes Check")
	}
	for _, name := range Systems() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the refusal %q does not name %s", err, name)
		}
	}
	e, err := NewEvent(1, TypeCreated, time.Now(), Created{Spec: spec, Organiser: "org"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Fold("t1", []Event{e}); err == nil {
		t.Error("a log of a knockout folds")
	}
}
