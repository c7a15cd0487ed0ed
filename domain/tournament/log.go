package tournament

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// EventType is the stable name of a tournament event: these strings are the durable record.
type EventType string

// The tournament's event types (docs/tournaments.md, "The log").
const (
	TypeCreated   EventType = "tournament.created"
	TypeEntered   EventType = "entry.added"
	TypeWithdrawn EventType = "entry.withdrawn"
	TypeStarted   EventType = "tournament.started"
	TypeRound     EventType = "round.started"
	TypeTable     EventType = "table.started"
	TypeResult    EventType = "table.ended"
	TypeRoundEnd  EventType = "round.ended"
	TypeEnded     EventType = "tournament.ended"
	TypeCancelled EventType = "tournament.cancelled"
)

// Event is one fact of a tournament's log; Data is its JSON payload exactly as hashed.
type Event struct {
	Seq  int             `json:"seq"`
	Type EventType       `json:"type"`
	At   time.Time       `json:"at"`
	Data json.RawMessage `json:"data"`
}

// Link is an event with the hashes that chain it: Hash = sha256(PrevHash || seq as 8 bytes
// big-endian || type || data), the formula of a match's log (docs/api-records.md, "Verifying an export").
type Link struct {
	Event
	PrevHash string `json:"prev_hash"`
	Hash     string `json:"hash"`
}

// ChainHash is the hash of an event whose predecessor's hash is prev (nil for seq 1).
func ChainHash(prev []byte, seq int, t EventType, data []byte) []byte {
	h := sha256.New()
	h.Write(prev)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(seq))
	h.Write(n[:])
	h.Write([]byte(t))
	h.Write(data)
	return h.Sum(nil)
}

// Chain links events after the head hash prev (hex, "" for none), each seq following the last.
func Chain(prev string, events []Event) ([]Link, error) {
	p, err := hex.DecodeString(prev)
	if err != nil {
		return nil, fmt.Errorf("chain: head hash: %w", err)
	}
	out := make([]Link, len(events))
	for i, e := range events {
		h := ChainHash(p, e.Seq, e.Type, e.Data)
		out[i] = Link{Event: e, PrevHash: hex.EncodeToString(p), Hash: hex.EncodeToString(h)}
		p = h
	}
	return out, nil
}

// VerifyChain re-hashes links in order and returns the first seq that breaks (0: none) and why.
func VerifyChain(links []Link) (bad int, detail string) {
	var prev []byte
	for i, l := range links {
		want := ChainHash(prev, l.Seq, l.Type, l.Data)
		got, _ := hex.DecodeString(l.Hash)
		gotPrev, _ := hex.DecodeString(l.PrevHash)
		switch {
		case l.Seq != i+1:
			return i + 1, fmt.Sprintf("seq %d is missing", i+1)
		case !bytes.Equal(gotPrev, prev):
			return l.Seq, "prev_hash is not the previous event's hash"
		case !bytes.Equal(got, want):
			return l.Seq, "hash does not match the type and data"
		}
		prev = want
	}
	return 0, ""
}

// Entrant is one entry: a player (a bot's player id for a bot, bot-greedy) with its name and
// rating when it entered (the Swiss's order between equal points).
type Entrant struct {
	Player string  `json:"player"`
	Name   string  `json:"name"`
	Bot    string  `json:"bot,omitempty"`
	Rating float64 `json:"rating"`
}

// Created is tournament.created's payload.
type Created struct {
	Spec
	Organiser     string `json:"organiser"`
	OrganiserName string `json:"organiser_name"`
}

// Withdrawn is entry.withdrawn's payload.
type Withdrawn struct {
	Player string `json:"player"`
}

// Started is tournament.started's payload: the entrants who play, in entry order, and the
// rounds planned.
type Started struct {
	Entrants []string `json:"entrants"`
	Rounds   int      `json:"rounds"`
}

// RoundStarted is round.started's payload: the pairing and, for a duplicate round, the
// commitment (hex SHA-256) to the one seed every table of the round is dealt from.
type RoundStarted struct {
	Round      int `json:"round"`
	Pairing    `json:"pairing"`
	Commitment string `json:"commitment,omitempty"`
}

// TableStarted is table.started's payload: the match a table of the round plays.
type TableStarted struct {
	Round int    `json:"round"`
	Table int    `json:"table"`
	Match string `json:"match"`
}

// RoundEnded is round.ended's payload: the duplicate round's seed, revealed (hex).
type RoundEnded struct {
	Round int    `json:"round"`
	Seed  string `json:"seed,omitempty"`
}

// Ended is tournament.ended's payload: the final standings.
type Ended struct {
	Standings []Standing `json:"standings"`
}

// Cancelled is tournament.cancelled's payload: who cancelled and why, and the seed of a
// duplicate round it cut short, revealed since no round.ended will.
type Cancelled struct {
	By     string `json:"by"`
	Reason string `json:"reason"`
	Seed   string `json:"seed,omitempty"`
}

// NewEvent encodes data as the event of type t at seq.
func NewEvent(seq int, t EventType, at time.Time, data any) (Event, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	return Event{Seq: seq, Type: t, At: at.UTC(), Data: b}, nil
}
