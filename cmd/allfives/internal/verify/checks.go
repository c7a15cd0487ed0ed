package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// exportFile is a JSON export as verify reads it: the payloads stay raw, so that the check of
// data against raw_data sees every byte the file holds rather than what a Go type keeps.
type exportFile struct {
	Match    json.RawMessage `json:"match"`
	Events   []exportEvent   `json:"events"`
	BranchOf *exportBranch   `json:"branch_of"`
}

type exportEvent struct {
	Seq  int             `json:"seq"`
	Type string          `json:"type"`
	At   time.Time       `json:"at"`
	Data json.RawMessage `json:"data"`
	// The chain link stays raw so that verify can tell a field left out from one set to null
	// or to something other than a string, and say which (verify_links.go).
	PrevHash json.RawMessage `json:"prev_hash"`
	Hash     json.RawMessage `json:"hash"`
	RawData  json.RawMessage `json:"raw_data"`
}

// Check is one check verify prints; Seq is the first event it found at fault, 0 when the
// fault lies in no single event.
type Check struct {
	Name   string
	OK     bool
	Detail string
	Seq    int
}

// Result is every check of one export, in the order verify prints them, with the match's id,
// its number of events and the chain's head hash (once the chain holds).
type Result struct {
	ID, Head string
	Events   int
	Checks   []Check
}

// OK reports whether every check holds.
func (r Result) OK() bool {
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

// FirstBad is the earliest seq any failed check names.
func (r Result) FirstBad() (int, bool) {
	bad := 0
	for _, c := range r.Checks {
		if !c.OK && c.Seq > 0 && (bad == 0 || c.Seq < bad) {
			bad = c.Seq
		}
	}
	return bad, bad > 0
}

// Err is nil when every check holds, else an error naming each failed check and its detail.
func (r Result) Err() error {
	var failed []string
	for _, c := range r.Checks {
		if !c.OK {
			failed = append(failed, c.Name+": "+c.Detail)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrNotVerified, strings.Join(failed, "; "))
}

func (r *Result) add(name string, ok bool, seq int, format string, args ...any) {
	r.Checks = append(r.Checks, Check{Name: name, OK: ok, Seq: seq, Detail: fmt.Sprintf(format, args...)})
}

// Export runs every check on an export's bytes (docs/api-records.md, "Verifying an export"). The
// later checks run on the payloads as hashed, raw_data, never on the data beside them.
func Export(body []byte) Result {
	var res Result
	var f exportFile
	var view api.MatchView
	if err := json.Unmarshal(body, &f); err != nil {
		res.add("export", false, 0, "not a JSON export of a match: %v", err)
		return res
	}
	if err := json.Unmarshal(f.Match, &view); err != nil || view.ID == "" || len(f.Events) == 0 {
		res.add("export", false, 0, "not a JSON export of a match: it needs a match with an id and its events")
		return res
	}
	res.ID, res.Events = view.ID, len(f.Events)
	links, ok := chainLinks(&res, f.Events)
	if !ok {
		return res
	}
	res.add("export", true, 0, "match %s, %d events, each with prev_hash, hash and raw_data", view.ID, len(f.Events))
	chain := audit.VerifyLinks(links)
	if chain.OK {
		res.Head = chain.HeadHash
		res.add(audit.CheckHashChain, true, 0, "%d events, each hash = sha256(prev_hash || seq || type || raw_data); head %s", chain.Events, chain.HeadHash)
	} else {
		res.add(audit.CheckHashChain, false, chain.FirstBadSeq, "seq %d: %s", chain.FirstBadSeq, chain.Detail)
	}
	log := payloads(&res, f.Events, links)
	for _, c := range audit.Events(view.ID, log, domain.Spectator()) {
		seq := 0
		if c.FirstBadSeq != nil {
			seq = *c.FirstBadSeq
		}
		res.add(c.Name, c.OK, seq, "%s", c.Detail)
	}
	switch n := len(log.Events); {
	case log.Unreadable > 0:
	case n > 0 && log.Events[n-1].Type != domain.TypeMatchEnded && audit.Closed(log.Events):
		closedCheck(&res, log.Events[n-1])
	case !audit.Closed(log.Events):
		res.add("finished", false, 0, "the log does not end with match.ended: the seed is not revealed, so no deal can be checked")
	}
	matchCheck(&res, view.ID, f.Match, log)
	if log.Unreadable == 0 && len(log.Events) > 0 {
		branchCheck(&res, f.BranchOf, log.Events, links)
	}
	return res
}

// closedCheck says how a match that ended without match.ended was closed: cancelled by its
// tournament after the deal, its match.cancelled revealing the seed that the seed and deal
// checks above used; or ended before any deal, its seed, which dealt nothing, kept secret.
func closedCheck(res *Result, last domain.Event) {
	if c, ok := last.Data.(domain.MatchCancelled); ok && c.Seed != "" {
		res.add("closed", true, 0, "the match was %s (%s) after the deal: its seed, revealed there, checks every deal", last.Type, c.Reason)
		return
	}
	res.add("closed", true, 0, "the match ended %s before any deal: no hand to check, and its seed, which dealt nothing, stays secret", last.Type)
}

// payloads decodes every raw_data into the domain's event and checks that the data beside it
// says the same: data is what a client reads, raw_data what the chain commits to.
func payloads(res *Result, events []exportEvent, links []audit.ChainLink) audit.LogRead {
	var log audit.LogRead
	bad := 0
	for i, e := range events {
		d, err := domain.DecodeEventData(links[i].Type, links[i].Data)
		if err != nil {
			log.Unreadable, log.Err = e.Seq, err
			if bad == 0 {
				res.add("payloads", false, e.Seq, "seq %d: raw_data is not a %s payload: %v", e.Seq, e.Type, err)
			}
			return log
		}
		ev := domain.Event{Seq: e.Seq, Type: links[i].Type, At: e.At, Data: d}
		log.Events = append(log.Events, ev)
		if bad == 0 && !sameJSON(wire(api.ToEvents([]domain.Event{ev})[0].Data), e.Data) {
			bad = e.Seq
		}
	}
	if bad > 0 {
		res.add("payloads", false, bad, "seq %d: data does not say what raw_data says", bad)
	} else {
		res.add("payloads", true, 0, "every event's data is its raw_data")
	}
	return log
}

func wire(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil // sameJSON then finds no match
	}
	return b
}

// sameJSON compares two JSON texts as values, whatever the order of their keys.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return bytes.Equal(wire(x), wire(y))
}
