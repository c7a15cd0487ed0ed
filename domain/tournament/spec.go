package tournament

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Format is the shape of a tournament's tables, as ratings name formats: 2p, 3p, 4p, 2v2.
type Format string

// The formats of a table.
const (
	Format2P  Format = "2p"
	Format3P  Format = "3p"
	Format4P  Format = "4p"
	Format2V2 Format = "2v2"
)

// TableSize is how many seats a table of format f has; 0 for an unknown format.
func (f Format) TableSize() int {
	switch f {
	case Format2P:
		return 2
	case Format3P:
		return 3
	case Format4P, Format2V2:
		return 4
	}
	return 0
}

// Partnerships says whether seats 0+2 and 1+3 play as sides.
func (f Format) Partnerships() bool { return f == Format2V2 }

// SideOf is the side of seat at a table of format f: seat%2 in partnerships, else the seat.
func (f Format) SideOf(seat int) int {
	if f.Partnerships() {
		return seat % 2
	}
	return seat
}

// Sides is how many sides a table of format f has.
func (f Format) Sides() int {
	if f.Partnerships() {
		return 2
	}
	return f.TableSize()
}

// Limits a spec must keep.
const (
	MaxRounds     = 20
	MaxEntries    = 256
	MaxNameLength = 80
)

// ErrInvalid is wrapped by every refusal of a spec, an entry or a command: the caller's input
// is at fault.
var ErrInvalid = errors.New("invalid tournament request")

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Spec is what an organiser asks for when creating a tournament. Rounds is the Swiss's number
// of rounds; a round robin's is fixed by its entries (RoundRobinRounds). Target and
// TurnSeconds are each match's (0: the rules' default, no clock); MinEntries (at least the
// table size) and MaxEntries bound the entries.
type Spec struct {
	Name        string     `json:"name"`
	Format      Format     `json:"format"`
	System      System     `json:"system"`
	Rounds      int        `json:"rounds,omitempty"`
	Duplicate   bool       `json:"duplicate"`
	Rated       bool       `json:"rated"`
	Target      int        `json:"target,omitempty"`
	TurnSeconds int        `json:"turn_seconds,omitempty"`
	StartsAt    *time.Time `json:"starts_at,omitempty"`
	MinEntries  int        `json:"min_entries"`
	MaxEntries  int        `json:"max_entries"`
}

// Check refuses a spec the engine cannot run, saying why; it fills the defaults of
// MinEntries (the table size) and MaxEntries (the most its system takes). What a system asks
// of the format and the rounds, and how many entries it takes, its Rules say.
func (s *Spec) Check() error {
	n := s.Format.TableSize()
	rules, known := s.System.Rules()
	switch {
	case s.Name == "" || len([]rune(s.Name)) > MaxNameLength:
		return invalidf("name: 1 to %d characters", MaxNameLength)
	case n == 0:
		return invalidf("format: one of 2p, 3p, 4p, 2v2")
	case !known:
		return invalidf("system: %s", oneOf(Systems()))
	}
	if err := rules.Check(*s); err != nil {
		return err
	}
	switch {
	case s.Target != 0 && (s.Target < 5 || s.Target > 1000 || s.Target%5 != 0):
		return invalidf("target: a multiple of 5 from 5 to 1000")
	case s.TurnSeconds != 0 && (s.TurnSeconds < 10 || s.TurnSeconds > 604800):
		return invalidf("turn_seconds: 10 to 604800")
	}
	if s.MinEntries == 0 {
		s.MinEntries = n
	}
	if s.MaxEntries == 0 {
		s.MaxEntries = rules.MaxEntries()
	}
	switch most := rules.MaxEntries(); {
	case s.MinEntries < n || s.MinEntries > MaxEntries:
		return invalidf("min_entries: %d (one table) to %d", n, MaxEntries)
	case s.MaxEntries < s.MinEntries || s.MaxEntries > MaxEntries:
		return invalidf("max_entries: min_entries to %d", MaxEntries)
	case s.MaxEntries > most:
		return invalidf("max_entries: a %s takes at most %d entries (%d rounds)", title(s.System), most, rules.Rounds(*s, most))
	}
	return nil
}

// oneOf says a list of names as a message does: "a", "a or b", "a, b or c".
func oneOf(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// PlannedRounds is how many rounds the tournament plays with entries players; none for a
// system the engine does not know, which Check refuses.
func (s Spec) PlannedRounds(entries int) int {
	if rules, ok := s.System.Rules(); ok {
		return rules.Rounds(s, entries)
	}
	return 0
}
