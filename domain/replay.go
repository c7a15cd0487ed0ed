package domain

import (
	"fmt"
)

// ReplayStep returns event step (1-based) of a match's log and the match as v may see it right
// after that event. events must hold at least the first step events, from seq 1; finished says
// whether the match's whole log has ended, which decides what v may see (docs/design.md, "Who sees what": a finished
// match hides nothing, a live one shows only what v may know now). A past state never shows
// more than the present one does, so a live match replays under the same redaction as its
// events.
func ReplayStep(id string, events []Event, step int, finished bool, v Viewer) (Event, MatchView, error) {
	if step < 1 || step > len(events) {
		return Event{}, MatchView{}, Invalidf("step must be 1 to %d, not %d", len(events), step)
	}
	m, err := Rebuild(id, events[:step])
	if err != nil {
		return Event{}, MatchView{}, fmt.Errorf("replay %s to step %d: %w", id, step, err)
	}
	v = m.Holder(v) // a seat joined or left since v's credential was checked is not v's
	if finished {
		v = v.Opened()
	}
	return v.Redact(events[step-1], finished), m.View(v), nil
}
