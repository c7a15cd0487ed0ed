package main

import (
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// renderSamples is one payload of each event type, as the replay text meets it.
func renderSamples() []domain.EventData {
	seat, winner, tile := 1, 0, domain.MustTile("2-5")
	return []domain.EventData{
		domain.MatchCreated{Players: make([]domain.PlayerInfo, 3), Target: 61},
		domain.HandStarted{Hand: 2, Leader: 1, Lead: domain.LeadWinner},
		domain.TilePlayed{Seat: 1, Tile: tile, End: domain.Left, Total: 10, Points: 10},
		domain.TileDrawn{Seat: 1, Tile: &tile},
		domain.TurnPassed{Seat: 2},
		domain.HandEnded{Hand: 2, Outcome: domain.OutcomeDomino, Seat: &seat, WinnerSide: &winner, Points: 15},
		domain.MatchEnded{WinnerSide: 1, Scores: []int{40, 61}},
		domain.SeatJoined{Seat: 1, Name: "Bo"},
		domain.SeatLeft{Seat: 2},
		domain.TurnTimedOut{Seat: 0},
		domain.SeatAutoplay{Seat: 0, Bot: domain.AutoplayBot},
		domain.SeatResumed{Seat: 0},
		domain.MatchExpired{},
		domain.MatchCancelled{Seat: &seat, Reason: domain.CancelDeclined},
		domain.SeatResigned{Seat: 2},
	}
}

// TestDescribeCoversEveryEventType: the replay text words an event of every type in
// domain.EventTypes, none by the bare type name describe falls back to, and no two types
// alike, so a new event type fails here until the replay text says what it did.
func TestDescribeCoversEveryEventType(t *testing.T) {
	samples := map[domain.EventType]domain.EventData{}
	for _, d := range renderSamples() {
		samples[d.EventType()] = d
	}
	said := map[string]domain.EventType{}
	for i, typ := range domain.EventTypes {
		d, ok := samples[typ]
		if !ok {
			t.Errorf("%s: no sample event here; add one and word it in describe", typ)
			continue
		}
		e := api.ToEvents([]domain.Event{{Seq: i + 1, Type: typ, At: time.Unix(0, 0).UTC(), Data: d}})[0]
		text := describe(e, false)
		if text == "" || text == string(typ) || !strings.Contains(text, " ") {
			t.Errorf("%s is not described: got %q (describe's fallback for an unknown type)", typ, text)
		}
		if other, dup := said[text]; dup {
			t.Errorf("%s and %s read the same: %q", other, typ, text)
		}
		said[text] = typ
	}
}
