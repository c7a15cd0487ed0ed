package tournament

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// System is the name of a tournament system, as a spec and the API give it.
type System string

// Rules are one tournament system: which specs it runs, how many rounds it plays, how it pairs
// a round and how its standings break ties. Each system is one file of this package whose
// init registers it (swiss.go, roundrobin.go); a spec, the engine, the audit and the API's
// enum find it by name (docs/tournaments.md, "Adding a system").
type Rules interface {
	// Name is the system's name in a spec, its log and the API.
	Name() System
	// Check refuses, saying why, a spec the system cannot run: its format or its rounds. The
	// spec's name and format are known good; its other fields are checked after.
	Check(s Spec) error
	// MaxEntries is the most entries the system takes: a spec's default max_entries and
	// its bound.
	MaxEntries() int
	// Rounds is how many rounds a tournament of spec s plays with entries entrants.
	Rounds(s Spec, entries int) int
	// Pair is the pairing of st's next round. It must be a function of the log alone (the
	// entries with their ratings, and the rounds before), so that the audit re-pairs every
	// round and finds the one logged.
	Pair(st *State) Pairing
	// TieBreaks order the entrants of equal points, the first that differs deciding; entry
	// order breaks what they leave.
	TieBreaks() []TieBreak
}

// systems are the registered systems by name.
var systems = map[System]Rules{}

// register adds a system; each system's file calls it from its init.
func register(r Rules) {
	if _, dup := systems[r.Name()]; dup {
		panic(fmt.Sprintf("tournament: system %q registered twice", r.Name()))
	}
	systems[r.Name()] = r
}

// Rules is the system named s; false when no system has that name.
func (s System) Rules() (Rules, bool) {
	r, ok := systems[s]
	return r, ok
}

// Systems lists the names of the systems a spec may ask for, sorted: the API's enum of
// system, which `go generate ./api/` writes from it.
func Systems() []string {
	names := make([]string, 0, len(systems))
	for n := range maps.Keys(systems) {
		names = append(names, string(n))
	}
	slices.Sort(names)
	return names
}

// title is how a message names system s: its name with spaces ("round robin").
func title(s System) string { return strings.ReplaceAll(string(s), "_", " ") }

// Table is one table of a round: the entrants by seat.
type Table struct {
	Seats []string `json:"seats"`
}

// Pairing is a round's tables and the entrants who sit out (a bye).
type Pairing struct {
	Tables []Table  `json:"tables"`
	Byes   []string `json:"byes,omitempty"`
}
