// Package bottest is what the tests of package bot share: the seat shapes they cover, and
// matches played on the aggregate one move at a time, so a test can look at every position.
// It is a package of its own so that the tests inside package bot and those in bot_test use
// the same code; it must not import package bot, whose internal tests import it.
package bottest

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// Big reports whether the long versions of the tests were asked for (ALLFIVES_BIG=1).
func Big() bool { return os.Getenv("ALLFIVES_BIG") != "" }

// Size is normal, or big when the long versions were asked for: how many matches a test plays.
func Size(normal, big int) int {
	if Big() {
		return big
	}
	return normal
}

// Shape is a shape a match's seats may take (domain.Table): 2, 3 or 4 players, the 4 alone or
// in partnerships.
type Shape struct {
	Players      int
	Partnerships bool
}

// Shapes returns every shape the rules allow.
func Shapes() []Shape { return []Shape{{2, false}, {3, false}, {4, false}, {4, true}} }

// String names the shape in subtest names and seeds: "2-alone" or "4-partners".
func (s Shape) String() string {
	if s.Partnerships {
		return "4-partners"
	}
	return fmt.Sprintf("%d-alone", s.Players)
}

// Spec is a match of bots seated as shape says, playing to target (0: the shape's default).
// The bot names are only labels: the tests hand the strategies to Play themselves.
func Spec(shape Shape, target int) domain.MatchSpec {
	spec := domain.MatchSpec{Partnerships: shape.Partnerships, Target: target}
	for s := 0; s < shape.Players; s++ {
		spec.Players = append(spec.Players, domain.PlayerInfo{Name: fmt.Sprint("p", s), Kind: domain.Bot, Bot: "random"})
	}
	return spec
}

// Seed turns text into a deal seed, so that each test's deals are named by what they are for.
func Seed(text string) domain.Seed {
	var seed domain.Seed
	copy(seed[:], text)
	return seed
}

// at is the time of every event: the clock plays no part in the rules.
var at = time.Unix(0, 0)

// Start deals the match and returns it with its opening events.
func Start(tb testing.TB, spec domain.MatchSpec, seed domain.Seed) (*domain.Match, []domain.Event) {
	tb.Helper()
	spec.Seeded = true
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := domain.Resume("x", seed, events)
	if err != nil {
		tb.Fatal(err)
	}
	return m, events
}

// Play plays a match until it ends or visit, called before every move with the match as it
// stands and its hand log, returns false. The seat to move asks strategies[seat % len(strategies)]. It returns
// the match and its whole log.
func Play(tb testing.TB, spec domain.MatchSpec, seed domain.Seed, strategies []domain.Strategy, visit func(m *domain.Match, hands domain.HandLog) bool) (*domain.Match, []domain.Event) {
	tb.Helper()
	m, log := Start(tb, spec, seed)
	var hands domain.HandLog
	hands.Record(log...)
	for !m.Finished() && visit(m, hands) {
		seat := m.Turn()
		mv, err := strategies[seat%len(strategies)].Choose(context.Background(), m.SeatView(seat, hands))
		if err != nil {
			tb.Fatal(err)
		}
		evs, err := m.Act(seat, mv, at)
		if err != nil {
			tb.Fatalf("seat %d move %+v: %v", seat, mv, err)
		}
		hands.Record(evs...)
		log = append(log, evs...)
	}
	return m, log
}

// SwapHidden rebuilds the log twice: as played, and with a tile an opponent of the seat to
// move still holds from the deal swapped for a tile not yet drawn from the boneyard. It returns
// both matches with their hand logs, for their seat views.
func SwapHidden(t testing.TB, log []domain.Event) (a, b *domain.Match, aHands, bHands domain.HandLog, ok bool) {
	t.Helper()
	a, err := domain.Rebuild("a", log)
	if err != nil {
		t.Fatal(err)
	}
	aHands.Record(log...)
	if a.Finished() || a.HandsPlayed() != 1 {
		return a, nil, aHands, bHands, false
	}
	seat := a.Turn()
	start := slices.IndexFunc(log, func(e domain.Event) bool { return e.Type == domain.TypeHandStarted })
	deal := log[start].Data.(domain.HandStarted)
	if a.SeatView(seat, aHands).Boneyard == 0 {
		return a, nil, aHands, bHands, false
	}
	for opp := range deal.Hands {
		held := a.SeatView(opp, aHands).Hand
		for i, tile := range deal.Hands[opp] {
			if opp == seat || !slices.Contains(held, tile) {
				continue
			}
			d := deal
			d.Hands = slices.Clone(deal.Hands)
			d.Hands[opp] = slices.Clone(deal.Hands[opp])
			d.Boneyard = slices.Clone(deal.Boneyard)
			j := len(d.Boneyard) - 1 // the last tile is drawn last: still in the boneyard
			d.Hands[opp][i], d.Boneyard[j] = d.Boneyard[j], tile
			swapped := slices.Clone(log)
			swapped[start].Data = d
			b, err := domain.Rebuild("b", swapped)
			if err != nil {
				continue // the swap broke the highest-double lead; try another tile
			}
			bHands.Record(swapped...)
			if reflect.DeepEqual(a.SeatView(opp, aHands).Hand, b.SeatView(opp, bHands).Hand) {
				t.Fatal("the swap changed no hidden hand")
			}
			return a, b, aHands, bHands, true
		}
	}
	return a, nil, aHands, bHands, false
}
