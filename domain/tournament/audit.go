package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
)

// MatchFacts is what the audit needs of one table's match, from its own record: who sat where
// (player ids by seat), its commitment, its seed once revealed, whether it ended, and its final
// score by seat (each seat's side's). Cancelled says it was cancelled with its tournament.
type MatchFacts struct {
	ID         string
	Players    []string
	Commitment string
	Seed       string
	Finished   bool
	Cancelled  bool
	Scores     []int
}

// Check is one line of an audit.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Report is a tournament's audit: OK when every check holds.
type Report struct {
	OK          bool       `json:"ok"`
	Events      int        `json:"events"`
	HeadHash    string     `json:"head_hash"`
	FirstBadSeq *int       `json:"first_bad_seq"`
	Checks      []Check    `json:"checks"`
	Standings   []Standing `json:"standings"`
}

// Audit checks a tournament's log (docs/tournaments.md, "Audit"): the hash chain; that the log
// folds (each event possible after the ones before); that every round's pairing is the one the
// rules give after the rounds before it; that every table's match seats the paired entrants,
// carries the round's committed seed in a duplicate round, and ended with the score the log
// records; that each revealed seed hashes to its commitment; and that the standings recomputed
// from the results equal the final standings logged. matches holds the facts of the tables'
// matches by id; a match missing from it fails its check. Sealed rounds (a duplicate round not
// ended) are checked only for what is public: their matches' commitments.
func Audit(id string, links []Link, matches map[string]MatchFacts) Report {
	rep := Report{Events: len(links)}
	add := func(name string, ok bool, format string, args ...any) {
		c := Check{Name: name, OK: ok}
		if !ok {
			c.Detail = fmt.Sprintf(format, args...)
		}
		rep.Checks = append(rep.Checks, c)
	}
	bad, detail := VerifyChain(links)
	add("chain", bad == 0, "%s", detail)
	if bad != 0 {
		rep.FirstBadSeq = &bad
	}
	if len(links) > 0 {
		rep.HeadHash = links[len(links)-1].Hash
	}
	events := make([]Event, len(links))
	for i, l := range links {
		events[i] = l.Event
	}
	st, err := Fold(id, events)
	add("log", err == nil, "%v", err)
	if err != nil {
		return rep.done()
	}
	add("pairings", true, "")
	checkPairings(st, events, &rep.Checks[len(rep.Checks)-1])
	add("matches", true, "")
	checkMatches(st, matches, &rep.Checks[len(rep.Checks)-1])
	rep.Standings = st.Standings()
	if st.Status == Finished {
		add("standings", reflect.DeepEqual(rep.Standings, st.Final), "the standings recomputed from the results differ from those logged at the end")
	}
	return rep.done()
}

func (r Report) done() Report {
	r.OK = !slices.ContainsFunc(r.Checks, func(c Check) bool { return !c.OK })
	return r
}

func fail(c *Check, format string, args ...any) {
	if c.OK {
		c.OK, c.Detail = false, fmt.Sprintf(format, args...)
	}
}

// checkPairings re-pairs every round from the log up to the event before it.
func checkPairings(st *State, events []Event, c *Check) {
	for i, e := range events {
		if e.Type != TypeRound {
			continue
		}
		before, err := Fold(st.ID, events[:i])
		if err != nil {
			fail(c, "%v", err)
			return
		}
		want := before.NextPairing()
		got := st.Rounds[len(before.Rounds)].Pairing
		if !reflect.DeepEqual(normal(want), normal(got)) {
			fail(c, "round %d's pairing is not the one the rules give", len(before.Rounds)+1)
		}
	}
}

func normal(p Pairing) Pairing {
	if len(p.Byes) == 0 {
		p.Byes = nil
	}
	if len(p.Tables) == 0 {
		p.Tables = nil
	}
	return p
}

// checkMatches compares each table with its match's own record.
func checkMatches(st *State, matches map[string]MatchFacts, c *Check) {
	for _, r := range st.Rounds {
		if r.Seed != "" {
			sum := sha256.Sum256(mustHex(r.Seed))
			if hex.EncodeToString(sum[:]) != r.Commitment {
				fail(c, "round %d's revealed seed does not hash to its commitment", r.Number)
			}
		}
		for t, id := range r.Matches {
			if id == "" {
				continue
			}
			m, ok := matches[id]
			switch {
			case !ok:
				fail(c, "round %d table %d: match %s is missing", r.Number, t+1, id)
			case !slices.Equal(m.Players, r.Pairing.Tables[t].Seats):
				fail(c, "round %d table %d: match %s seats other players than the pairing", r.Number, t+1, id)
			case st.Spec.Duplicate && m.Commitment != r.Commitment:
				fail(c, "round %d table %d: match %s is not dealt from the round's committed seed", r.Number, t+1, id)
			case r.Results[t] != nil && (!m.Finished || !slices.Equal(m.Scores, r.Results[t].Scores)):
				fail(c, "round %d table %d: match %s did not end with the score logged", r.Number, t+1, id)
			case r.Ended && st.Spec.Duplicate && m.Seed != r.Seed:
				fail(c, "round %d table %d: match %s revealed another seed than the round", r.Number, t+1, id)
			}
		}
	}
}

func mustHex(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}
