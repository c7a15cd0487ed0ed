package domain

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// testAt is the fixed time of every event in rule tests.
var testAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// table describes the seats of a scenario.
type table struct {
	players      int
	partnerships bool
	target       int
}

// deal describes a hand dealt by hand rather than from a seed.
type deal struct {
	hands    []string // one space-separated list of tiles per seat
	boneyard string
	leader   int
	lead     LeadRule
}

// tiles parses a space-separated list of tiles.
func tiles(s string) []Tile {
	var out []Tile
	for _, f := range strings.Fields(s) {
		out = append(out, MustTile(f))
	}
	return out
}

// createdEvent is match.created for a table, players named after their seats.
func createdEvent(tb table) EventData {
	players := make([]PlayerInfo, tb.players)
	for i := range players {
		players[i] = PlayerInfo{Seat: i, Name: "p" + string(rune('0'+i)), Kind: Human}
	}
	t, _ := NewTable(tb.players, tb.partnerships)
	target := tb.target
	if target == 0 {
		target = t.DefaultTarget()
	}
	return MatchCreated{Players: players, Partnerships: tb.partnerships, Target: target,
		HandSize: t.HandSize(), Rules: RulesVersion, Commitment: Seed{}.Commitment()}
}

// dealEvent is hand.started for a hand dealt by the test.
func dealEvent(number int, d deal) EventData {
	hs := HandStarted{Hand: number, Leader: d.leader, Lead: d.lead, Boneyard: tiles(d.boneyard)}
	for _, h := range d.hands {
		hs.Hands = append(hs.Hands, tiles(h))
		hs.HandSizes = append(hs.HandSizes, len(tiles(h)))
	}
	if hs.Lead == "" {
		hs.Lead = LeadWinner
	}
	hs.BoneyardCount = len(hs.Boneyard)
	return hs
}

// events numbers payloads into a log.
func events(data ...EventData) []Event {
	out := make([]Event, len(data))
	for i, d := range data {
		out[i] = Event{Seq: i + 1, Type: d.EventType(), At: testAt, Data: d}
	}
	return out
}

// given folds a log into a match (zero seed), failing the test if it does not fold.
func given(t *testing.T, data ...EventData) *Match {
	t.Helper()
	m, err := Resume("m", Seed{}, events(data...))
	if err != nil {
		t.Fatalf("given: %v", err)
	}
	return m
}

// command is one move by a seat.
type command struct {
	seat int
	move Move
}

// when runs commands in order, applying each one's events; it returns the events of the last
// command and its error (earlier commands must succeed).
func when(t *testing.T, m *Match, cmds ...command) ([]Event, error) {
	t.Helper()
	var last []Event
	for i, c := range cmds {
		evs, err := m.Decide(c.seat, c.move, testAt)
		if err != nil {
			if i < len(cmds)-1 {
				t.Fatalf("command %d (%+v): %v", i, c, err)
			}
			return nil, err
		}
		for _, e := range evs {
			if err := m.Apply(e); err != nil {
				t.Fatalf("apply %+v: %v", e, err)
			}
		}
		last = evs
	}
	return last, nil
}

// thenData compares the payloads of got with want; a nil want entry only checks the type of
// the event at that position, via wantTypes.
func thenData(t *testing.T, got []Event, want ...EventData) {
	t.Helper()
	if len(got) < len(want) {
		t.Fatalf("got %d events %v, want at least %d", len(got), typesOf(got), len(want))
	}
	for i, w := range want {
		if !reflect.DeepEqual(got[i].Data, w) {
			t.Errorf("event %d:\n got  %#v\n want %#v", i, got[i].Data, w)
		}
	}
}

func typesOf(evs []Event) []EventType {
	out := make([]EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func thenTypes(t *testing.T, got []Event, want ...EventType) {
	t.Helper()
	if !reflect.DeepEqual(typesOf(got), want) {
		t.Fatalf("event types %v, want %v", typesOf(got), want)
	}
}

func thenError(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func ptr[T any](v T) *T { return &v }

func play(seat int, tile string, e End) command {
	return command{seat, Play(MustTile(tile), e)}
}
