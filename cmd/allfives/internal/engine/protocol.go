package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/allfives/allfives/domain"
)

// Greeting is the connector's first line: the protocol and its version.
const Greeting = "allfives-engine 1"

// The words that begin a line (docs/engine.md, "Lines").
const (
	WordID          = "id"
	WordReady       = "ready"
	WordUnsupported = "unsupported"
	WordMatch       = "match"
	WordEvent       = "event"
	WordGo          = "go"
	WordMove        = "move"
	WordError       = "error"
	WordEnd         = "end"
	WordQuit        = "quit"
	WordInfo        = "info"
)

// Split returns a line's first word and the rest after one space, a trailing CR dropped.
func Split(line string) (word, rest string) {
	line = strings.TrimRight(line, "\r\n")
	word, rest, _ = strings.Cut(line, " ")
	return word, rest
}

// LegalMove is one element of a `go` line's array: a legal move exactly as the API's
// legal_moves writes it.
type LegalMove struct {
	Action string `json:"action"`
	Tile   string `json:"tile,omitempty"`
	End    string `json:"end,omitempty"`
	Points *int   `json:"points,omitempty"`
}

// Domain reads the move as the domain's legal move.
func (l LegalMove) Domain() (domain.LegalMove, error) {
	a, err := domain.ParseAction(l.Action)
	if err != nil {
		return domain.LegalMove{}, err
	}
	out := domain.LegalMove{Action: a}
	if a != domain.ActionPlay {
		return out, nil
	}
	if out.Tile, err = domain.ParseTile(l.Tile); err != nil {
		return domain.LegalMove{}, err
	}
	if out.End, err = domain.ParseEnd(l.End); err != nil {
		return domain.LegalMove{}, err
	}
	if l.Points != nil {
		out.Points = *l.Points
	}
	return out, nil
}

// Same says whether two moves take the same action: points are not compared, since an
// engine's answer need not repeat them.
func (l LegalMove) Same(o LegalMove) bool {
	if l.Action != o.Action {
		return false
	}
	if l.Action != "play" {
		return true
	}
	a, errA := domain.ParseTile(l.Tile)
	b, errB := domain.ParseTile(o.Tile)
	return errA == nil && errB == nil && a == b && l.End == o.End
}

// GoLine is the connector's `go` line: the milliseconds left on the seat's clock (-1: no
// clock) and the seat's legal moves.
func GoLine(msLeft int64, moves []LegalMove) (string, error) {
	b, err := json.Marshal(moves)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %d %s", WordGo, msLeft, b), nil
}

// ParseGo reads the rest of a `go` line.
func ParseGo(rest string) (msLeft int64, moves []LegalMove, err error) {
	num, arr, ok := strings.Cut(rest, " ")
	if !ok {
		return 0, nil, fmt.Errorf("go: want <ms> <legal moves>, got %q", rest)
	}
	if _, err := fmt.Sscan(num, &msLeft); err != nil {
		return 0, nil, fmt.Errorf("go: %q is not a number of milliseconds", num)
	}
	if err := json.Unmarshal([]byte(arr), &moves); err != nil {
		return 0, nil, fmt.Errorf("go: the legal moves are not a JSON array: %w", err)
	}
	return msLeft, moves, nil
}

// ParseMove reads the rest of an engine's `move` line: one JSON object.
func ParseMove(rest string) (LegalMove, error) {
	var mv LegalMove
	if err := json.Unmarshal([]byte(rest), &mv); err != nil {
		return LegalMove{}, fmt.Errorf("move: not a JSON object: %w", err)
	}
	return mv, nil
}

// FromDomain writes a domain legal move as the API's legal_moves does.
func FromDomain(l domain.LegalMove) LegalMove {
	out := LegalMove{Action: l.Action.String()}
	if l.Action == domain.ActionPlay {
		points := l.Points
		out.Tile, out.End, out.Points = l.Tile.String(), l.End.String(), &points
	}
	return out
}

// EventLine is an `event` line for one event as the seat reads it.
func EventLine(e domain.Event) string {
	b, err := json.Marshal(e)
	if err != nil { // an event always encodes: its payloads are plain data
		panic(err)
	}
	return WordEvent + " " + string(b)
}
