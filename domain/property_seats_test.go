package domain

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestRandomMatchesWithOpenSeatsAndClocksKeepInvariants(t *testing.T) {
	n := propertyMatches(t)
	for _, tb := range propertyTables {
		t.Run(tb.name, func(t *testing.T) {
			t.Parallel()
			for i := range n {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(tb.players)+100))
				playSeatedMatch(t, rng, tb.players, tb.partnerships)
				if t.Failed() {
					t.Fatalf("match %d failed", i)
				}
			}
		})
	}
}

// playSeatedMatch plays a random match with random open seats and a clock: seats are joined
// (and sometimes left and joined again) in random order, then each step is a random legal move,
// a timeout of the seat on the clock, a resume of a seat on autoplay, or a bot's move for a
// seat on autoplay. Every invariant of playRandomMatch is checked after every event.
func playSeatedMatch(t *testing.T, rng *rand.Rand, players int, partnerships bool) {
	var seed Seed
	for i := range seed {
		seed[i] = byte(rng.UintN(256))
	}
	spec := MatchSpec{Players: humans(players), Partnerships: partnerships, TurnSeconds: 10 + rng.IntN(100)}
	for s := range players {
		if rng.IntN(2) == 0 {
			spec.Players[s] = PlayerInfo{Kind: Open}
		}
	}
	now := testAt
	log, err := Start(spec, seed, now)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Resume("m", seed, log)
	if err != nil {
		t.Fatal(err)
	}
	var hl HandLog
	hl.Record(log...)
	apply := func(evs []Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("version %d: %v", m.version, err)
		}
		log = applyChecked(t, m, seed, log, evs)
		hl.Record(evs...)
	}
	for open := m.OpenSeats(); len(open) > 0; open = m.OpenSeats() {
		now = now.Add(time.Second)
		seat := open[rng.IntN(len(open))]
		apply(m.DecideJoin(seat, "j", now))
		if len(open) > 1 && rng.IntN(3) == 0 {
			apply(m.DecideLeave(seat, now))
		}
	}
	if m.Status() != StatusInProgress {
		t.Fatalf("every seat taken but status %s", m.Status())
	}
	random := func(v SeatView) (Move, error) { return v.LegalMoves[rng.IntN(len(v.LegalMoves))].Move(), nil }
	for !m.Finished() {
		seat := m.Turn()
		deadline, clocked := m.Deadline()
		switch r := rng.IntN(10); {
		case m.OnAutoplay(seat) && r < 8:
			now = now.Add(time.Second)
			apply(m.Decide(seat, m.AutoMove(seat, hl, random), now))
		case m.OnAutoplay(seat):
			now = now.Add(time.Second)
			apply(m.DecideResume(seat, now))
		case clocked && r < 4:
			now = deadline.Add(time.Duration(rng.IntN(5)) * time.Second)
			apply(m.DecideTimeout(now, hl, random))
		default:
			now = now.Add(time.Second)
			legal := m.LegalMoves(seat)
			apply(m.Decide(seat, legal[rng.IntN(len(legal))].Move(), now))
		}
		if m.Turn() >= 0 {
			if _, ok := m.Deadline(); ok == m.OnAutoplay(m.Turn()) {
				t.Fatalf("version %d: seat %d on autoplay %v but on the clock %v", m.version, m.Turn(), m.OnAutoplay(m.Turn()), ok)
			}
		}
	}
}
