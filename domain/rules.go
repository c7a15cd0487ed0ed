package domain

import (
	"encoding/json"
	"fmt"
)

// End names one of the line's two open ends.
type End uint8

// The two ends. The zero End is Left, which is also where a lead is recorded.
const (
	Left End = iota
	Right
)

// ParseEnd reads "left" or "right".
func ParseEnd(s string) (End, error) {
	switch s {
	case "left":
		return Left, nil
	case "right":
		return Right, nil
	}
	return Left, fmt.Errorf("%w: %q is not an end; use left or right", ErrBadEnd, Truncate(s, 16))
}

// String is "left" or "right".
func (e End) String() string {
	if e == Right {
		return "right"
	}
	return "left"
}

// MarshalJSON writes the end's name: event payloads (tile.played) are durable JSON.
func (e End) MarshalJSON() ([]byte, error) { return json.Marshal(e.String()) }

// UnmarshalJSON reads "left" or "right".
func (e *End) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("%w: an end is \"left\" or \"right\"", ErrBadEnd)
	}
	v, err := ParseEnd(s)
	if err != nil {
		return err
	}
	*e = v
	return nil
}

// PlayerKind says who plays a seat.
type PlayerKind string

// The kinds of player.
const (
	Human PlayerKind = "human"
	Bot   PlayerKind = "bot"
	// Open is a seat waiting for a player to join (docs/design.md, "Seats, joining and the clock").
	Open PlayerKind = "open"
)

// LeadRule says why the leader of a hand leads.
type LeadRule string

// The lead rules (docs/rules.md, rule 5).
const (
	LeadHighestDouble LeadRule = "highest_double"
	LeadWinner        LeadRule = "winner"
)

// Outcome is how a hand ended.
type Outcome string

// The outcomes of a hand.
const (
	OutcomeDomino  Outcome = "domino"
	OutcomeBlocked Outcome = "blocked"
)

// Action is what a seat does on its turn.
type Action uint8

// The three actions.
const (
	ActionPlay Action = iota + 1
	ActionDraw
	ActionPass
)

// ParseAction reads "play", "draw" or "pass".
func ParseAction(s string) (Action, error) {
	switch s {
	case "play":
		return ActionPlay, nil
	case "draw":
		return ActionDraw, nil
	case "pass":
		return ActionPass, nil
	}
	return 0, Invalidf("%q is not an action; use play, draw or pass", Truncate(s, 16))
}

// String is the action's name.
func (a Action) String() string {
	switch a {
	case ActionPlay:
		return "play"
	case ActionDraw:
		return "draw"
	case ActionPass:
		return "pass"
	}
	return "none"
}

// Round5 rounds pips to the nearest five, halves up: 2 -> 0, 3 -> 5, 12 -> 10, 13 -> 15.
func Round5(x int) int {
	return 5 * ((x + 2) / 5)
}

// scoreOf is what a total scores: itself when a positive multiple of five, else nothing.
func scoreOf(total int) int {
	if total > 0 && total%5 == 0 {
		return total
	}
	return 0
}

// Table is the fixed shape of a match: how many seats, whether partners share a side.
type Table struct {
	players      int
	partnerships bool
}

// NewTable checks the seat count (2, 3 or 4) and that partnerships have four players.
func NewTable(players int, partnerships bool) (Table, error) {
	if players < 2 || players > 4 {
		return Table{}, Invalidf("a match has 2, 3 or 4 players, not %d", players)
	}
	if partnerships && players != 4 {
		return Table{}, Invalidf("partnerships need exactly 4 players")
	}
	return Table{players: players, partnerships: partnerships}, nil
}

// Players is the number of seats.
func (t Table) Players() int { return t.players }

// Partnerships says whether seats 0+2 and 1+3 share a side.
func (t Table) Partnerships() bool { return t.partnerships }

// Sides is the number of scoring sides.
func (t Table) Sides() int {
	if t.partnerships {
		return 2
	}
	return t.players
}

// SideOf is the side a seat scores for.
func (t Table) SideOf(seat int) int {
	if t.partnerships {
		return seat % 2
	}
	return seat
}

// HandSize is the number of tiles dealt to each seat: 7 with two players, else 5.
func (t Table) HandSize() int {
	if t.players == 2 {
		return 7
	}
	return 5
}

// DefaultTarget is 250 with two sides, 200 with three or four.
func (t Table) DefaultTarget() int {
	if t.Sides() == 2 {
		return 250
	}
	return 200
}

// ValidateTarget checks a requested target: a multiple of 5 from 5 to 1000.
func ValidateTarget(target int) error {
	if target < 5 || target > 1000 || target%5 != 0 {
		return Invalidf("target must be a multiple of 5 from 5 to 1000, not %d", target)
	}
	return nil
}
