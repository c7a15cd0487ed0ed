package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// Fixture is a real match being played for store tests: what Create needs, and the live
// aggregate that produces each next Append. Its events come from domain.Start and
// Match.Decide, so a store is exercised with the payloads it will really hold.
type Fixture struct {
	Record  referee.MatchRecord
	Opening []domain.Event // the events handed to Create
	Match   *domain.Match  // the aggregate after every event produced so far
	Events  []domain.Event // every event produced so far, in order
	rng     *rand.Rand
	clock   time.Time
}

// NewFixture starts a match with the given seat names (default "ann", "bob"), created at at.
// Seat 0 is human with a token hash, the others random bots. The seed and the random moves
// derive from id, so a fixture is reproducible. target 0 means the table's default.
func NewFixture(tb testing.TB, id string, at time.Time, target int, names ...string) *Fixture {
	tb.Helper()
	if len(names) == 0 {
		names = []string{"ann", "bob"}
	}
	players := make([]domain.PlayerInfo, len(names))
	seats := make([]referee.SeatRecord, len(names))
	for i, n := range names {
		players[i] = domain.PlayerInfo{Seat: i, Name: n, Kind: domain.Bot, Bot: "random"}
		seats[i] = referee.SeatRecord{Seat: i, Name: n, Kind: domain.Bot, Bot: "random"}
	}
	players[0] = domain.PlayerInfo{Seat: 0, Name: names[0], Kind: domain.Human}
	token := sha256.Sum256([]byte("token/" + id))
	seats[0] = referee.SeatRecord{Seat: 0, Name: names[0], Kind: domain.Human, TokenHash: token[:]}

	seed := domain.Seed(sha256.Sum256([]byte("seed/" + id)))
	events, err := domain.Start(domain.MatchSpec{Players: players, Target: target, Seeded: true}, seed, at)
	if err != nil {
		tb.Fatalf("start %s: %v", id, err)
	}
	m, err := domain.Resume(id, seed, events)
	if err != nil {
		tb.Fatalf("rebuild %s: %v", id, err)
	}
	var s1, s2 uint64
	for i, b := range seed[:16] {
		if i < 8 {
			s1 = s1<<8 | uint64(b)
		} else {
			s2 = s2<<8 | uint64(b)
		}
	}
	return &Fixture{
		Record:  referee.MatchRecord{ID: id, Seed: seed, Seats: seats, CreatedAt: at},
		Opening: events,
		Match:   m,
		Events:  append([]domain.Event(nil), events...),
		rng:     rand.New(rand.NewPCG(s1, s2)),
		clock:   at,
	}
}

// Create stores the fixture's match with its opening events.
func (f *Fixture) Create(ctx context.Context, s referee.EventStore) error {
	m, err := domain.Resume(f.Record.ID, f.Record.Seed, f.Opening)
	if err != nil {
		return err
	}
	return s.Create(ctx, f.Record, f.Opening, m.Summary())
}

// Next plays a random legal move one second after the last and returns the Append that
// records it. It fails the test when the match is already finished.
func (f *Fixture) Next(tb testing.TB) referee.Append {
	tb.Helper()
	expected := f.Match.Version()
	f.clock = f.clock.Add(time.Second)
	events, err := Step(f.Match, f.rng, f.clock)
	if err != nil {
		tb.Fatalf("%s: %v", f.Record.ID, err)
	}
	f.Events = append(f.Events, events...)
	return referee.Append{MatchID: f.Record.ID, Expected: expected, Events: events, Summary: f.Match.Summary()}
}

// Step takes a legal move for the seat to act in m (random with rng, the first listed when
// rng is nil): Act decides it and applies the resulting events to m, which Step returns.
func Step(m *domain.Match, rng *rand.Rand, at time.Time) ([]domain.Event, error) {
	if m.Finished() {
		return nil, fmt.Errorf("match %s is finished", m.ID())
	}
	seat := m.Turn()
	moves := m.LegalMoves(seat)
	if len(moves) == 0 {
		return nil, fmt.Errorf("match %s: seat %d has no legal move", m.ID(), seat)
	}
	mv := moves[0]
	if rng != nil {
		mv = moves[rng.IntN(len(moves))]
	}
	return m.Act(seat, mv.Move(), at)
}

// SameEvents fails the test unless got and want are the same log: equal seq and type, equal
// instants with got in UTC, and payloads of the same Go type with the same durable JSON.
func SameEvents(tb testing.TB, got, want []domain.Event) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("got %d events, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Seq != w.Seq || g.Type != w.Type {
			tb.Fatalf("event %d: got seq %d %s, want seq %d %s", i, g.Seq, g.Type, w.Seq, w.Type)
		}
		if !g.At.Equal(w.At) || g.At.Location() != time.UTC {
			tb.Fatalf("seq %d: at %v, want %v in UTC", w.Seq, g.At, w.At)
		}
		if reflect.TypeOf(g.Data) != reflect.TypeOf(w.Data) {
			tb.Fatalf("seq %d: payload type %T, want %T", w.Seq, g.Data, w.Data)
		}
		gj, err1 := domain.EncodeData(g.Data)
		wj, err2 := domain.EncodeData(w.Data)
		if err1 != nil || err2 != nil || !bytes.Equal(gj, wj) {
			tb.Fatalf("seq %d: payload\n got %s\nwant %s", w.Seq, gj, wj)
		}
	}
}

// SameSummary fails the test unless got equals want, with UpdatedAt the same instant in UTC.
func SameSummary(tb testing.TB, got, want domain.Summary) {
	tb.Helper()
	if !got.UpdatedAt.Equal(want.UpdatedAt) || got.UpdatedAt.Location() != time.UTC {
		tb.Fatalf("summary updated_at %v, want %v in UTC", got.UpdatedAt, want.UpdatedAt)
	}
	got.UpdatedAt, want.UpdatedAt = time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("summary\n got %+v\nwant %+v", got, want)
	}
}

// PlayToEnd appends random legal moves to s until the fixture's match is finished, at most
// maxSteps of them, and returns how many it appended.
func (f *Fixture) PlayToEnd(tb testing.TB, s referee.EventStore, maxSteps int) int {
	tb.Helper()
	n := 0
	for ; n < maxSteps && !f.Match.Finished(); n++ {
		if err := s.Append(context.Background(), f.Next(tb)); err != nil {
			tb.Fatalf("%s: append: %v", f.Record.ID, err)
		}
	}
	return n
}
