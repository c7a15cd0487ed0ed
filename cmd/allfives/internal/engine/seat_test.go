package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
)

// table is one match played on the aggregate, as the referee plays bots: every seat's events
// as that seat reads them, and at each turn the view the referee would hand the bot.
type table struct {
	m      *domain.Match
	hands  domain.HandLog
	events []domain.Event
	at     time.Time
}

func newTable(t *testing.T, players int, partnerships bool, deal byte) *table {
	t.Helper()
	spec := domain.MatchSpec{Partnerships: partnerships, Seeded: true}
	for s := range players {
		spec.Players = append(spec.Players, domain.PlayerInfo{Seat: s, Name: fmt.Sprintf("bot-%d", s), Kind: domain.Bot, Bot: bot.NameGreedy})
	}
	var seed domain.Seed
	seed[0], seed[1] = deal, byte(players)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume("m", seed, events)
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{m: m, events: events, at: at}
	tb.hands.Record(events...)
	return tb
}

// act plays mv for the seat to move and keeps its events.
func (tb *table) act(t *testing.T, mv domain.Move) {
	t.Helper()
	evs, err := tb.m.Act(tb.m.Turn(), mv, tb.at)
	if err != nil {
		t.Fatal(err)
	}
	tb.hands.Record(evs...)
	tb.events = append(tb.events, evs...)
}

// seen is events as seat reads them through the API: redacted, then through JSON.
func seen(t *testing.T, seat int, events []domain.Event) []domain.Event {
	t.Helper()
	out := make([]domain.Event, len(events))
	for i, e := range domain.SeatViewer(seat).RedactAll(events, false) {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestSeatFoldsTheRefereesView: at every turn of whole matches at each table, the view
// folded from the seat's own events is the one the referee builds from the whole record.
func TestSeatFoldsTheRefereesView(t *testing.T) {
	for _, tc := range []struct {
		players      int
		partnerships bool
	}{{2, false}, {3, false}, {4, false}, {4, true}} {
		t.Run(fmt.Sprintf("%dp-%v", tc.players, tc.partnerships), func(t *testing.T) {
			strategy := bot.NewRandom(3)
			tb := newTable(t, tc.players, tc.partnerships, 1)
			folds := make([]*Seat, tc.players)
			fed := make([]int, tc.players)
			for s := range folds {
				folds[s] = NewSeat(s)
			}
			turns := 0
			for !tb.m.Finished() {
				seat := tb.m.Turn()
				for _, e := range seen(t, seat, tb.events[fed[seat]:]) {
					if err := folds[seat].Apply(e); err != nil {
						t.Fatal(err)
					}
				}
				fed[seat] = len(tb.events)
				want := tb.m.SeatView(seat, tb.hands)
				got, err := folds[seat].View(want.LegalMoves)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("turn %d, seat %d: folded view\n%+v\nwant the referee's\n%+v", turns, seat, got, want)
				}
				mv, err := strategy.Choose(context.Background(), want)
				if err != nil {
					t.Fatal(err)
				}
				tb.act(t, mv)
				turns++
			}
			if turns < 20 {
				t.Fatalf("a whole match of %d turns: too short to have tested anything", turns)
			}
		})
	}
}

// TestSeatRefusesAGap: an event out of order is an error, not a wrong view.
func TestSeatRefusesAGap(t *testing.T) {
	tb := newTable(t, 2, false, 2)
	s := NewSeat(0)
	ev := seen(t, 0, tb.events)
	if err := s.Apply(ev[1]); err == nil {
		t.Fatal("event 2 before event 1 was folded")
	}
	if err := s.Apply(ev[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ev[0]); err == nil {
		t.Fatal("event 1 folded twice")
	}
}
