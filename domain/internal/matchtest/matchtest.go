package matchtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// Shape is one shape a match's seats may take (domain.Table; docs/rules.md, "Players and
// sides"), named for subtests.
type Shape struct {
	Name         string
	Players      int
	Partnerships bool
}

// Shapes are the four shapes the rules allow.
var Shapes = []Shape{
	{"two", 2, false}, {"three", 3, false}, {"four alone", 4, false}, {"four partners", 4, true},
}

// Start is the fixed clock's first reading; each event of a played-out match is a second on.
var Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Seed is a fixed seed: seed i is 32 bytes of i.
func Seed(i byte) domain.Seed { return domain.Seed(bytes.Repeat([]byte{i}, 32)) }

// Spec is a match of the given shape with human seats P0, P1, ...
func Spec(shape Shape, target int) domain.MatchSpec {
	spec := domain.MatchSpec{Partnerships: shape.Partnerships, Target: target}
	for s := range shape.Players {
		spec.Players = append(spec.Players, domain.PlayerInfo{Name: fmt.Sprintf("P%d", s), Kind: domain.Human})
	}
	return spec
}

// PlayOut plays a match through the pure domain, each seat taking the legal move pick chooses,
// until it ends or its log holds at least stop events (0: to the end), and returns the log.
func PlayOut(t testing.TB, spec domain.MatchSpec, seed domain.Seed, pick func([]domain.LegalMove) domain.LegalMove, stop int) []domain.Event {
	t.Helper()
	spec.Seeded = true
	log, err := domain.Start(spec, seed, Start)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	m, err := domain.Resume("m", seed, log)
	if err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	for !m.Finished() && (stop == 0 || len(log) < stop) {
		seat := m.Turn()
		at := Start.Add(time.Duration(m.Version()) * time.Second)
		events, err := m.Act(seat, pick(m.LegalMoves(seat)).Move(), at)
		if err != nil {
			t.Fatalf("move at version %d: %v", m.Version(), err)
		}
		log = append(log, events...)
	}
	return log
}

// FirstMove picks the first legal move listed.
func FirstMove(legal []domain.LegalMove) domain.LegalMove { return legal[0] }

// RandomMove picks a legal move at random from rng.
func RandomMove(rng *rand.Rand) func([]domain.LegalMove) domain.LegalMove {
	return func(legal []domain.LegalMove) domain.LegalMove { return legal[rng.IntN(len(legal))] }
}

// Begin deals match "m" of spec from seed at at, as the referee would: the opening events and
// the aggregate resumed from them.
func Begin(tb testing.TB, spec domain.MatchSpec, seed domain.Seed, at time.Time) (*domain.Match, []domain.Event) {
	tb.Helper()
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := domain.Resume("m", seed, events)
	if err != nil {
		tb.Fatal(err)
	}
	return m, events
}
