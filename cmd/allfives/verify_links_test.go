package main

import (
	"strings"
	"testing"
)

// TestVerifyHandEditedLinks: a file edited by hand so that one event's link is null, missing
// or removed is named by that event and field, with the rule the field follows, and never
// taken for a live match's export, which carries no link at all.
func TestVerifyHandEditedLinks(t *testing.T) {
	f := newReplayFixture(t)
	body := exportOf(t, f, f.done)
	cases := []struct {
		name string
		edit func(e editable)
		want []string // each in the FAIL export line
		seq  string
	}{
		{"prev_hash null on seq 1", func(e editable) { e.Events[0]["prev_hash"] = nil },
			[]string{`event seq 1: prev_hash is null; the first event's prev_hash is "" (no bytes)`}, "1"},
		{"hash missing on seq 3", func(e editable) { delete(e.Events[2], "hash") },
			[]string{"event seq 3: hash is missing; an event's hash is sha256(prev_hash || seq || type || raw_data)"}, "3"},
		{"raw_data removed on seq 5", func(e editable) { delete(e.Events[4], "raw_data") },
			[]string{"event seq 5: raw_data is missing; raw_data is the payload as the server hashed it"}, "5"},
		{"hash a number on seq 2", func(e editable) { e.Events[1]["hash"] = 7 },
			[]string{"event seq 2: hash is 7, not a string"}, "2"},
		{"prev_hash empty on seq 4", func(e editable) { e.Events[3]["prev_hash"] = "" },
			[]string{"event seq 4: prev_hash holds 0 bytes, not 32", "each later one the hash of the event before"}, "4"},
		{"two faults in seq 2, one later", func(e editable) {
			e.Events[1]["prev_hash"] = "zz"
			delete(e.Events[1], "raw_data")
			e.Events[6]["hash"] = nil
		}, []string{`event seq 2: prev_hash "zz" is not hex`, "; and raw_data is missing", "(later events at fault: 1 more)"}, "2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := parseExport(t, body)
			c.edit(e)
			out, err := verifyFile(t, e.bytes(t))
			if err == nil {
				t.Fatalf("verify passed the edited file:\n%s", out)
			}
			line := failLine(out, "export")
			for _, w := range c.want {
				if !strings.Contains(line, w) {
					t.Errorf("the export check reads %q, want it to say %q", line, w)
				}
			}
			if strings.Contains(out, "once the match has ended") || strings.Contains(out, "carry no prev_hash") {
				t.Errorf("one bad event is taken for a live export:\n%s", out)
			}
			if !strings.Contains(out, "first bad seq: "+c.seq+"\n") {
				t.Errorf("verify does not name seq %s first:\n%s", c.seq, out)
			}
		})
	}
}

// TestVerifyNoLinksAtAll: an export none of whose events has a link, not even a null, is a
// live match's, and verify still says to export it once the match has ended.
func TestVerifyNoLinksAtAll(t *testing.T) {
	f := newReplayFixture(t)
	e := parseExport(t, exportOf(t, f, f.done))
	for _, ev := range e.Events {
		delete(ev, "prev_hash")
		delete(ev, "hash")
		delete(ev, "raw_data")
	}
	out, err := verifyFile(t, e.bytes(t))
	if err == nil || !strings.Contains(failLine(out, "export"), "carry no prev_hash, hash and raw_data") {
		t.Fatalf("verify of an export without links: %v\n%s", err, out)
	}
}

// failLine is the FAIL line verify printed for a check, or "".
func failLine(out, check string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL "+check+" ") {
			return l
		}
	}
	return ""
}
