package domain

import (
	"encoding/json"
	"fmt"
	"time"
)

// EventType is the stable name of an event. These strings are the durable record: never
// rename one, never derive one from a Go type name.
type EventType string

// The event types (docs/design.md, "Events"): stable names, never derived from Go types.
const (
	TypeMatchCreated EventType = "match.created"
	TypeHandStarted  EventType = "hand.started"
	TypeTilePlayed   EventType = "tile.played"
	TypeTileDrawn    EventType = "tile.drawn"
	TypeTurnPassed   EventType = "turn.passed"
	TypeHandEnded    EventType = "hand.ended"
	TypeMatchEnded   EventType = "match.ended"
	// Seats and the clock (docs/design.md, "Seats, joining and the clock").
	TypeSeatJoined   EventType = "seat.joined"
	TypeSeatLeft     EventType = "seat.left"
	TypeTurnTimedOut EventType = "turn.timed_out"
	TypeSeatAutoplay EventType = "seat.autoplay"
	TypeSeatResumed  EventType = "seat.resumed"
	TypeMatchExpired EventType = "match.expired"
	// Consent and resignation (docs/design.md, "Consent and resignation").
	TypeMatchCancelled EventType = "match.cancelled"
	TypeSeatResigned   EventType = "seat.resigned"
)

// EventTypes is every event type, in the order the docs list them: the one list that the web
// client, the text renderer, the API's enum and the decoder are each tested to cover.
var EventTypes = []EventType{
	TypeMatchCreated, TypeHandStarted, TypeTilePlayed, TypeTileDrawn, TypeTurnPassed,
	TypeHandEnded, TypeMatchEnded, TypeSeatJoined, TypeSeatLeft, TypeTurnTimedOut,
	TypeSeatAutoplay, TypeSeatResumed, TypeMatchExpired, TypeMatchCancelled, TypeSeatResigned,
}

// RulesVersion names the rule set and deal derivation a match is refereed under.
const RulesVersion = "allfives/v1"

// Event is one fact in a match's log. Seq counts from 1 with no gaps.
type Event struct {
	Seq  int       `json:"seq"`
	Type EventType `json:"type"`
	At   time.Time `json:"at"`
	Data EventData `json:"data"`
}

// EventData is the payload of an event; each payload type belongs to exactly one EventType.
type EventData interface {
	EventType() EventType
}

// PlayerInfo describes a seat in match.created.
type PlayerInfo struct {
	Seat int        `json:"seat"`
	Name string     `json:"name"`
	Kind PlayerKind `json:"kind"`
	Bot  string     `json:"bot,omitempty"`
	// Player is the lasting player bound to a human seat (docs/api-players.md, "Players"); empty,
	// and so absent from the JSON, for an anonymous seat, which keeps older records' bytes.
	Player string `json:"player,omitempty"`
	// ReservedFor says, on an open seat, for whom it is kept: a challenged player, or a
	// rematch's previous holder of the seat. Only that one may take it, or decline it. Zero,
	// and so absent from the JSON, on every other seat, which keeps older records' bytes.
	ReservedFor Reservation `json:"reserved_for,omitzero"`
}

// MatchCreated opens every match log.
type MatchCreated struct {
	Players      []PlayerInfo `json:"players"`
	Partnerships bool         `json:"partnerships"`
	Target       int          `json:"target"`
	HandSize     int          `json:"hand_size"`
	Rules        string       `json:"rules"`
	Commitment   string       `json:"commitment"`
	Seeded       bool         `json:"seeded"`
	// Listed puts a match with open seats in the lobby, where anyone may join without an invite.
	Listed bool `json:"listed,omitempty"`
	// TurnSeconds is the clock: how long a human seat has to act (0: no clock).
	TurnSeconds int `json:"turn_seconds,omitempty"`
	// AutoplayAfter is how many timeouts in a row hand a seat to its bot (with a clock only).
	AutoplayAfter int `json:"autoplay_after,omitempty"`
	// Rated says the match moves its players' ratings (docs/ratings.md): every seat is bound
	// to a player or is a bot. Absent when false, which keeps older records' bytes.
	Rated bool `json:"rated,omitempty"`
	// OfferSeconds makes the match an offer (a rematch): its reserved seats have this long
	// from match.created to be taken before the match is cancelled (offer_expired). Absent
	// when 0, which keeps older records' bytes.
	OfferSeconds int `json:"offer_seconds,omitempty"`
	// BranchOf makes the match a branch (docs/review.md, "Play on"): played on from the
	// position before a decision of a finished match, whose log up to it this one repeats.
	// Absent on any other match, which keeps older records' bytes.
	BranchOf *BranchOf `json:"branch_of,omitempty"`
}

// BranchOf names the match a branch was played on from, and the step: the decision's seq, the
// branch starting from the state before it. Hash is that match's hash of event Step-1 (hex),
// the head of the prefix the branch's log repeats, so that the prefix an export embeds is
// checked against it. Dealt says which revealed seeds dealt the hands the branch shares with
// the matches it came from; every later hand is dealt from the branch's own secret seed.
type BranchOf struct {
	Match string      `json:"match"`
	Step  int         `json:"step"`
	Hash  string      `json:"hash"`
	Dealt []DealtFrom `json:"dealt"`
}

// DealtFrom says that the hands numbered up to Hands (after those of the entries before it)
// were dealt from Seed, a finished match's revealed seed (hex).
type DealtFrom struct {
	Hands int    `json:"hands"`
	Seed  string `json:"seed"`
}

// DealSeed is the seed that deals hand number of a match created by c: own, but for a
// branch's hands shared with the matches it came from (BranchOf.Dealt), whose seeds are
// revealed. A seed in Dealt that cannot be read is an error.
func DealSeed(c MatchCreated, own Seed, number int) (Seed, error) {
	if c.BranchOf == nil {
		return own, nil
	}
	for _, d := range c.BranchOf.Dealt {
		if number <= d.Hands {
			return ParseSeed(d.Seed)
		}
	}
	return own, nil
}

// HandStarted records a deal. Hands and Boneyard hold the whole deal in the stored record; in a
// redacted copy an unseen hand is null and Boneyard is nil, with the counts given instead.
type HandStarted struct {
	Hand          int      `json:"hand"`
	Leader        int      `json:"leader"`
	Lead          LeadRule `json:"lead"`
	Redeals       int      `json:"redeals"`
	Hands         [][]Tile `json:"hands"`
	HandSizes     []int    `json:"hand_sizes"`
	Boneyard      []Tile   `json:"boneyard,omitempty"`
	BoneyardCount int      `json:"boneyard_count"`
}

// TilePlayed records a play; Total is the ends' count after it and Points what it scored.
type TilePlayed struct {
	Seat   int  `json:"seat"`
	Tile   Tile `json:"tile"`
	End    End  `json:"end"`
	Total  int  `json:"total"`
	Points int  `json:"points"`
}

// TileDrawn records a draw from the boneyard. Tile is nil in a copy for anyone but the drawer.
type TileDrawn struct {
	Seat int   `json:"seat"`
	Tile *Tile `json:"tile,omitempty"`
}

// TurnPassed records a pass (no playable tile, empty boneyard).
type TurnPassed struct {
	Seat int `json:"seat"`
}

// HandEnded records the result of a hand.
type HandEnded struct {
	Hand       int     `json:"hand"`
	Outcome    Outcome `json:"outcome"`
	Seat       *int    `json:"seat,omitempty"`
	WinnerSide *int    `json:"winner_side"`
	Pips       []int   `json:"pips"`
	Points     int     `json:"points"`
	Scores     []int   `json:"scores"`
}

// MatchEnded closes the log and reveals the seed.
type MatchEnded struct {
	WinnerSide int    `json:"winner_side"`
	Scores     []int  `json:"scores"`
	Seed       string `json:"seed"`
}

// SeatJoined records a player taking an open seat.
type SeatJoined struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	// Player is the lasting player who joined with its key; absent for an anonymous join.
	Player string `json:"player,omitempty"`
}

// SeatLeft records a player leaving a seat before the first deal: the seat is open again.
type SeatLeft struct {
	Seat int `json:"seat"`
}

// TurnTimedOut records that a human seat did not act before its deadline; the events of the
// turn played for it follow in the same append.
type TurnTimedOut struct {
	Seat int `json:"seat"`
}

// SeatAutoplay records a seat handed to its bot after too many timeouts in a row.
type SeatAutoplay struct {
	Seat int    `json:"seat"`
	Bot  string `json:"bot"`
}

// SeatResumed records a seat's player taking it back from its bot.
type SeatResumed struct {
	Seat int `json:"seat"`
}

// MatchExpired closes a waiting match whose open seats stayed empty.
type MatchExpired struct{}

// EventType implementations tie each payload to its stable name.
func (MatchCreated) EventType() EventType { return TypeMatchCreated }

// EventType names the payload.
func (HandStarted) EventType() EventType { return TypeHandStarted }

// EventType names the payload.
func (TilePlayed) EventType() EventType { return TypeTilePlayed }

// EventType names the payload.
func (TileDrawn) EventType() EventType { return TypeTileDrawn }

// EventType names the payload.
func (TurnPassed) EventType() EventType { return TypeTurnPassed }

// EventType names the payload.
func (HandEnded) EventType() EventType { return TypeHandEnded }

// EventType names the payload.
func (MatchEnded) EventType() EventType { return TypeMatchEnded }

// EventType names the payload.
func (SeatJoined) EventType() EventType { return TypeSeatJoined }

// EventType names the payload.
func (SeatLeft) EventType() EventType { return TypeSeatLeft }

// EventType names the payload.
func (TurnTimedOut) EventType() EventType { return TypeTurnTimedOut }

// EventType names the payload.
func (SeatAutoplay) EventType() EventType { return TypeSeatAutoplay }

// EventType names the payload.
func (SeatResumed) EventType() EventType { return TypeSeatResumed }

// EventType names the payload.
func (MatchExpired) EventType() EventType { return TypeMatchExpired }

// DecodeEventData reads the JSON payload of an event of type t.
func DecodeEventData(t EventType, data []byte) (EventData, error) {
	var (
		d   EventData
		err error
	)
	switch t {
	case TypeMatchCreated:
		d, err = decodeAs[MatchCreated](data)
	case TypeHandStarted:
		d, err = decodeAs[HandStarted](data)
	case TypeTilePlayed:
		d, err = decodeAs[TilePlayed](data)
	case TypeTileDrawn:
		d, err = decodeAs[TileDrawn](data)
	case TypeTurnPassed:
		d, err = decodeAs[TurnPassed](data)
	case TypeHandEnded:
		d, err = decodeAs[HandEnded](data)
	case TypeMatchEnded:
		d, err = decodeAs[MatchEnded](data)
	case TypeSeatJoined:
		d, err = decodeAs[SeatJoined](data)
	case TypeSeatLeft:
		d, err = decodeAs[SeatLeft](data)
	case TypeTurnTimedOut:
		d, err = decodeAs[TurnTimedOut](data)
	case TypeSeatAutoplay:
		d, err = decodeAs[SeatAutoplay](data)
	case TypeSeatResumed:
		d, err = decodeAs[SeatResumed](data)
	case TypeMatchExpired:
		d, err = decodeAs[MatchExpired](data)
	case TypeMatchCancelled:
		d, err = decodeAs[MatchCancelled](data)
	case TypeSeatResigned:
		d, err = decodeAs[SeatResigned](data)
	default:
		return nil, fmt.Errorf("unknown event type %q", t)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", t, err)
	}
	return d, nil
}

func decodeAs[T EventData](data []byte) (EventData, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// UnmarshalJSON reads an event in its wire form, choosing the payload type by "type".
func (e *Event) UnmarshalJSON(b []byte) error {
	var raw struct {
		Seq  int             `json:"seq"`
		Type EventType       `json:"type"`
		At   time.Time       `json:"at"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	data, err := DecodeEventData(raw.Type, raw.Data)
	if err != nil {
		return err
	}
	*e = Event{Seq: raw.Seq, Type: raw.Type, At: raw.At, Data: data}
	return nil
}
