package verify

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// What each link field is, said where a hand-edited file gets one wrong (docs/api-records.md,
// "Verifying an export").
const (
	prevHashRule = `the first event's prev_hash is "" (no bytes), each later one the hash of the event before`
	hashRule     = "an event's hash is sha256(prev_hash || seq || type || raw_data) in lower-case hex, 64 characters"
	rawDataRule  = "raw_data is the payload as the server hashed it, a JSON string"
)

// chainLinks reads each event's link; ok is false (with a failed check) when one is missing,
// null, not a string or not hex. An export with no link at all is a live match's, which
// carries none until the match ends; any other is named by the first event at fault.
func chainLinks(res *Result, events []exportEvent) ([]audit.ChainLink, bool) {
	if noLinks(events) {
		res.add("export", false, 0, "the events carry no prev_hash, hash and raw_data: only a finished match's export does (or that of a match expired or cancelled before any deal); export it once the match has ended")
		return nil, false
	}
	links := make([]audit.ChainLink, len(events))
	firstBad, faults, later := 0, "", 0
	for i, e := range events {
		link, why := readLink(i, e)
		if why == "" {
			links[i] = link
			continue
		}
		if firstBad == 0 {
			firstBad, faults = e.Seq, why
		} else {
			later++
		}
	}
	if firstBad == 0 {
		return links, true
	}
	more := ""
	if later > 0 {
		more = fmt.Sprintf(" (later events at fault: %d more)", later)
	}
	res.add("export", false, firstBad, "event seq %d: %s%s", firstBad, faults, more)
	return nil, false
}

// noLinks says whether no event has any of prev_hash, hash and raw_data, not even a null.
func noLinks(events []exportEvent) bool {
	for _, e := range events {
		if e.PrevHash != nil || e.Hash != nil || e.RawData != nil {
			return false
		}
	}
	return true
}

// readLink reads event i's link, or says everything wrong with it, each fault with the rule
// the field follows.
func readLink(i int, e exportEvent) (audit.ChainLink, string) {
	var faults []string
	prev, why := linkString("prev_hash", e.PrevHash)
	if why == "" {
		why = hexOf("prev_hash", prev, i == 0)
	}
	if why != "" {
		faults = append(faults, why+"; "+prevHashRule)
	}
	hash, why := linkString("hash", e.Hash)
	if why == "" {
		why = hexOf("hash", hash, false)
	}
	if why != "" {
		faults = append(faults, why+"; "+hashRule)
	}
	raw, why := linkString("raw_data", e.RawData)
	if why != "" {
		faults = append(faults, why+"; "+rawDataRule)
	}
	if len(faults) > 0 {
		return audit.ChainLink{}, strings.Join(faults, "; and ")
	}
	p, _ := hex.DecodeString(prev)
	h, _ := hex.DecodeString(hash)
	return audit.ChainLink{Seq: e.Seq, Type: domain.EventType(e.Type), Data: []byte(raw), PrevHash: p, Hash: h}, ""
}

// linkString is a link field's string, or what it is instead: missing, null or another type.
func linkString(name string, raw json.RawMessage) (string, string) {
	if raw == nil {
		return "", name + " is missing"
	}
	if string(raw) == "null" { // which would unmarshal into a string as "", with no error
		return "", name + " is null"
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Sprintf("%s is %s, not a string", name, raw)
	}
	return s, ""
}

// hexOf checks a hash field: 32 bytes in hex, or none where first allows it (seq 1's prev_hash).
func hexOf(name, s string, first bool) string {
	if s == "" && first {
		return ""
	}
	b, err := hex.DecodeString(s)
	switch {
	case err != nil:
		return fmt.Sprintf("%s %q is not hex", name, s)
	case len(b) != 32:
		return fmt.Sprintf("%s holds %d bytes, not 32", name, len(b))
	}
	return ""
}
