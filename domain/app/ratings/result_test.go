package ratings_test

import (
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/domain/openskill"
)

// resignedLog is a rated match of seats bound to players p0, p1, ... that seat resigns once
// the first hand is dealt; with more than two sides the rest is played out, the resigned seat
// by autoplay.
func resignedLog(t *testing.T, seats, resigner int) []domain.Event {
	t.Helper()
	spec := domain.MatchSpec{Rated: true, Target: 50}
	for s := range seats {
		spec.Players = append(spec.Players, domain.PlayerInfo{Name: string(rune('a' + s)), Kind: domain.Human, Player: "p" + string(rune('0'+s))})
	}
	seed := matchtest.Seed(4)
	at := matchtest.Start
	m, log := matchtest.Begin(t, spec, seed, at)
	var hl domain.HandLog
	hl.Record(log...)
	events, err := m.DecideResign(resigner, at)
	for err == nil {
		if err = m.ApplyAll(events); err != nil {
			break
		}
		hl.Record(events...)
		log = append(log, events...)
		if m.Finished() {
			return log
		}
		seat := m.Turn()
		at = at.Add(time.Second)
		events, err = m.Decide(seat, m.AutoMove(seat, hl, nil), at)
	}
	t.Fatal(err)
	return nil
}

// TestAResignedSideRanksLast: the side that resigned loses rating as the last of the match,
// whatever the scores say, and the other side of two wins.
func TestAResignedSideRanksLast(t *testing.T) {
	for _, seats := range []int{2, 3, 4} {
		res, ok, err := ratings.ResultOf("m", resignedLog(t, seats, 0))
		if err != nil || !ok {
			t.Fatalf("%d seats: result %v %v", seats, ok, err)
		}
		if len(res.Resigned) != 1 || res.Resigned[0] != 0 || res.WinnerSide == 0 {
			t.Fatalf("%d seats: resigned %v, winner side %d", seats, res.Resigned, res.WinnerSide)
		}
		// Even a resigned side with the best score ranks last.
		res.Scores[0] = 1000
		changes, _, err := ratings.Rate(openskill.Default(), res, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes[1:] {
			if changes[0].After.Mu >= c.After.Mu {
				t.Fatalf("%d seats: the resigned seat's mu %.3f is not below seat %d's %.3f", seats, changes[0].After.Mu, c.Seat, c.After.Mu)
			}
		}
		if changes[0].Won || changes[0].After.Mu >= changes[0].Before.Mu {
			t.Fatalf("%d seats: the resigned seat won %v, mu %.3f -> %.3f", seats, changes[0].Won, changes[0].Before.Mu, changes[0].After.Mu)
		}
	}
}
