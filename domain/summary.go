package domain

import (
	"encoding/json"
	"time"
)

// Summary is the read model of a match kept beside its log for history queries.
type Summary struct {
	Status     Status
	Players    []PlayerInfo
	Scores     []int
	WinnerSide *int
	Hands      int
	Version    int
	UpdatedAt  time.Time
	// Turn is the seat to act (nil when none); Deadline is when it must have acted, when it is
	// a human on the clock, or when a waiting offer is cancelled unless accepted: the sweeper
	// finds due matches by it.
	Turn     *int
	Deadline *time.Time
	// Listed, OpenSeats, Target and TurnSeconds are what the lobby shows of a waiting match.
	Listed      bool
	OpenSeats   []int
	Target      int
	TurnSeconds int
	// Seeded says the creator chose the seed, and so can compute every hand: every history and
	// lobby item shows it (docs/api-records.md, "Checking a deal yourself").
	Seeded bool
}

// EncodeData is the durable JSON of an event's payload: what stores keep and hash.
func EncodeData(d EventData) ([]byte, error) { return json.Marshal(d) }

// Summary is the read model of the match as it stands.
func (m *Match) Summary() Summary {
	s := Summary{
		Status: m.Status(), Players: m.Players(), Scores: m.Scores(),
		Hands: m.hands, Version: m.version, UpdatedAt: m.updatedAt,
		Listed: m.info.Listed, OpenSeats: m.OpenSeats(), Target: m.info.Target, TurnSeconds: m.info.TurnSeconds,
		Seeded: m.info.Seeded,
	}
	if turn := m.Turn(); turn >= 0 {
		s.Turn = &turn
	}
	if d, ok := m.Deadline(); ok {
		s.Deadline = &d
	} else if d, ok := m.OfferDeadline(); ok {
		s.Deadline = &d
	}
	if m.finished {
		w := m.winnerSide
		s.WinnerSide = &w
	}
	return s
}
