package tournament

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

func duplicateLog(t *testing.T) (*logger, map[string]MatchFacts) {
	spec := Spec{Name: "dup", Format: Format2P, System: Swiss, Rounds: 3, Duplicate: true}
	l := newLogger(t, spec)
	for _, id := range ids(6) {
		l.add(TypeEntered, Entrant{Player: id, Name: id})
	}
	l.add(TypeStarted, Started{Entrants: ids(6), Rounds: 3})
	rng := rand.New(rand.NewPCG(5, 5))
	facts := map[string]MatchFacts{}
	for range 3 {
		l.playRound(func(_, _ int, _ []string) []int { return randomScores(Format2P, rng) }, facts)
	}
	l.add(TypeEnded, Ended{Standings: l.st.Standings()})
	return l, facts
}

// TestAuditHolds: a whole duplicate tournament's log audits, and its standings are recomputed.
func TestAuditHolds(t *testing.T) {
	l, facts := duplicateLog(t)
	links, err := Chain("", l.events)
	if err != nil {
		t.Fatal(err)
	}
	rep := Audit("t1", links, facts)
	if !rep.OK || len(rep.Checks) != 5 {
		t.Fatalf("audit %+v", rep)
	}
}

// TestAuditCatches: each tampering fails its own check.
func TestAuditCatches(t *testing.T) {
	cases := map[string]func(links []Link, facts map[string]MatchFacts){
		"chain": func(links []Link, _ map[string]MatchFacts) {
			links[2].Data = json.RawMessage(`{"player":"x","name":"x"}`)
		},
		"matches": func(_ []Link, facts map[string]MatchFacts) {
			f := facts["m1-0"]
			f.Commitment = "00"
			facts["m1-0"] = f
		},
		"scores": func(_ []Link, facts map[string]MatchFacts) {
			f := facts["m2-1"]
			f.Scores = []int{0, 250}
			facts["m2-1"] = f
		},
	}
	for name, tamper := range cases {
		l, facts := duplicateLog(t)
		links, _ := Chain("", l.events)
		tamper(links, facts)
		if rep := Audit("t1", links, facts); rep.OK {
			t.Fatalf("%s: tampering passed the audit", name)
		}
	}
	// A round paired against the rules: swap two entrants of round 2's pairing and re-chain.
	l, facts := duplicateLog(t)
	for i, e := range l.events {
		if e.Type != TypeRound {
			continue
		}
		var d RoundStarted
		_ = json.Unmarshal(e.Data, &d)
		if d.Round == 2 {
			d.Tables[0].Seats[0], d.Tables[1].Seats[0] = d.Tables[1].Seats[0], d.Tables[0].Seats[0]
			l.events[i].Data, _ = json.Marshal(d)
		}
	}
	links, _ := Chain("", l.events)
	if rep := Audit("t1", links, facts); rep.OK {
		t.Fatalf("a pairing against the rules passed")
	}
}
