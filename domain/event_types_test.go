package domain

import (
	"testing"
)

// TestEventTypesAreEveryDecodableType: every listed type decodes, once each, and every event
// the payloads name is listed, so a new event type cannot be added without joining the list
// that the web client, the text renderer and the API's enum are tested against.
func TestEventTypesAreEveryDecodableType(t *testing.T) {
	seen := map[EventType]bool{}
	for _, typ := range EventTypes {
		if seen[typ] {
			t.Fatalf("%s listed twice", typ)
		}
		seen[typ] = true
		if _, err := DecodeEventData(typ, []byte(`{}`)); err != nil {
			t.Errorf("%s is listed but does not decode: %v", typ, err)
		}
	}
	for _, d := range []EventData{
		MatchCreated{}, HandStarted{}, TilePlayed{}, TileDrawn{}, TurnPassed{}, HandEnded{}, MatchEnded{},
		SeatJoined{}, SeatLeft{}, TurnTimedOut{}, SeatAutoplay{}, SeatResumed{}, MatchExpired{},
	} {
		if !seen[d.EventType()] {
			t.Errorf("%T's type %s is not in EventTypes", d, d.EventType())
		}
	}
}
