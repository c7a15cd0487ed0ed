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
}

// EncodeData is the durable JSON of an event's payload: what stores keep and hash.
func EncodeData(d EventData) ([]byte, error) { return json.Marshal(d) }

// Summary is the read model of the match as it stands.
func (m *Match) Summary() Summary {
	s := Summary{
		Status: m.Status(), Players: m.Players(), Scores: m.Scores(),
		Hands: m.hands, Version: m.version, UpdatedAt: m.updatedAt,
	}
	if m.finished {
		w := m.winnerSide
		s.WinnerSide = &w
	}
	return s
}
