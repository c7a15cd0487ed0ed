package api

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/allfives/allfives/domain"
)

// Event is one fact of a match's log (docs/design.md, "Events") as the caller may see it.
type Event struct {
	Seq  int       `json:"seq" minimum:"1"`
	Type string    `json:"type" enums:"match.created,hand.started,tile.played,tile.drawn,turn.passed,hand.ended,match.ended,seat.joined,seat.left,turn.timed_out,seat.autoplay,seat.resumed,match.expired,match.cancelled,seat.resigned"`
	At   time.Time `json:"at" format:"date-time"`
	Data EventData `json:"data"`
}

// StreamEvent is one event of the live stream as the caller may see it; Match is the caller's
// view right after it, only on a stream asked for with ?view=1.
type StreamEvent struct {
	Event
	Match *MatchView `json:"match,omitempty"`
}

// EventData is the union of every event's payload: each type carries its own fields (docs/design.md,
// "Events") and no others. Swagger 2.0 has no oneOf, so one schema lists them all; the
// descriptions say which type carries which field.
type EventData struct {
	// match.created
	Players []Player `json:"players,omitempty"`
	// match.created
	Partnerships *bool `json:"partnerships,omitempty"`
	// match.created
	Target *int `json:"target,omitempty"`
	// match.created
	HandSize *int `json:"hand_size,omitempty"`
	// match.created
	Rules string `json:"rules,omitempty" example:"allfives/v1"`
	// match.created: hex(sha256(seed))
	Commitment string `json:"commitment,omitempty"`
	// match.created
	Seeded *bool `json:"seeded,omitempty"`
	// hand.started, hand.ended
	Hand *int `json:"hand,omitempty"`
	// hand.started
	Leader *int `json:"leader,omitempty"`
	// hand.started
	Lead string `json:"lead,omitempty" enums:"highest_double,winner"`
	// hand.started
	Redeals *int `json:"redeals,omitempty"`
	// hand.started: tiles per seat; a hand the caller may not see is null
	Hands [][]string `json:"hands,omitempty"`
	// hand.started
	HandSizes []int `json:"hand_sizes,omitempty"`
	// hand.started: the draw order, only once the match has ended
	Boneyard []string `json:"boneyard,omitempty"`
	// hand.started
	BoneyardCount *int `json:"boneyard_count,omitempty"`
	// tile.played, tile.drawn, turn.passed, seat.*, turn.timed_out; hand.ended: who went out
	// (domino only); match.cancelled: who declined or withdrew (absent: the offer expired)
	Seat *int `json:"seat,omitempty"`
	// tile.played (canonical); tile.drawn: only for the seat that drew, or once the match ended
	Tile string `json:"tile,omitempty" example:"4-6"`
	// tile.played: the end played on (a lead: left)
	End string `json:"end,omitempty" enums:"left,right"`
	// tile.played: the ends' count after the play
	Total *int `json:"total,omitempty"`
	// tile.played, hand.ended
	Points *int `json:"points,omitempty"`
	// hand.ended
	Outcome string `json:"outcome,omitempty" enums:"domino,blocked"`
	// hand.ended (null on a tie), match.ended
	WinnerSide OptionalSide `json:"winner_side,omitzero" swaggertype:"integer" extensions:"x-nullable" validate:"optional"`
	// hand.ended: pips left per seat
	Pips []int `json:"pips,omitempty"`
	// hand.ended, match.ended: per side, after
	Scores []int `json:"scores,omitempty"`
	// match.ended, and match.cancelled by its tournament after a deal: the seed, revealed
	Seed string `json:"seed,omitempty"`
	// match.created: the match is in the lobby while it waits
	Listed *bool `json:"listed,omitempty"`
	// match.created: the clock, when set
	TurnSeconds *int `json:"turn_seconds,omitempty"`
	// match.created: timeouts in a row that hand a seat to its bot, with a clock
	AutoplayAfter *int `json:"autoplay_after,omitempty"`
	// match.created: the match moves its players' ratings (docs/ratings.md); absent when not
	Rated *bool `json:"rated,omitempty"`
	// seat.joined: the player's name
	Name string `json:"name,omitempty"`
	// seat.autoplay: the strategy now playing the seat
	Bot string `json:"bot,omitempty" example:"greedy"`
	// Player (seat.joined) is the id of the lasting player who joined with its key; absent
	// for an anonymous join.
	Player string `json:"player,omitempty"`
	// match.created: an offer (a rematch), whose reserved seats have this long to be taken
	OfferSeconds *int `json:"offer_seconds,omitempty"`
	// match.created: a branch (docs/review.md, "Play on"): the match and step it was played on
	// from, and the hash of that match's event step-1, the head of the prefix this log repeats
	BranchOf *EventBranch `json:"branch_of,omitempty"`
	// match.cancelled: why the match was cancelled: before it started, or with its tournament
	Reason string `json:"reason,omitempty" enums:"declined,withdrawn,offer_expired,tournament_cancelled"`
}

// OptionalSide is a winner_side that may be absent (most events), null (a tied hand) or a
// side. omitzero drops it when absent; MarshalJSON writes null or the side.
type OptionalSide struct {
	present bool
	side    *int
}

// Side is the winning side, nil on a tie or when absent.
func (o OptionalSide) Side() *int { return o.side }

// IsZero reports an absent field, for omitzero.
func (o OptionalSide) IsZero() bool { return !o.present }

// MarshalJSON writes the side or null.
func (o OptionalSide) MarshalJSON() ([]byte, error) {
	if o.side == nil {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(*o.side), 10), nil
}

// UnmarshalJSON reads a side or null, for clients written in Go.
func (o *OptionalSide) UnmarshalJSON(b []byte) error {
	*o = OptionalSide{present: true}
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &o.side)
}

// ToEvents is the wire form of events, each as the domain redacted it for the caller.
func ToEvents(in []domain.Event) []Event {
	out := make([]Event, len(in))
	for i, e := range in {
		out[i] = Event{Seq: e.Seq, Type: string(e.Type), At: e.At, Data: eventData(e.Data)}
	}
	return out
}

func eventData(d domain.EventData) EventData {
	switch d := d.(type) {
	case domain.MatchCreated:
		players := make([]Player, len(d.Players))
		for i, p := range d.Players {
			players[i] = toPlayer(p)
		}
		out := EventData{
			Players: players, Partnerships: &d.Partnerships, Target: &d.Target, HandSize: &d.HandSize,
			Rules: d.Rules, Commitment: d.Commitment, Seeded: &d.Seeded,
		}
		if d.Listed {
			out.Listed = &d.Listed
		}
		if d.TurnSeconds > 0 {
			out.TurnSeconds, out.AutoplayAfter = &d.TurnSeconds, &d.AutoplayAfter
		}
		if d.Rated {
			out.Rated = &d.Rated
		}
		if d.OfferSeconds > 0 {
			out.OfferSeconds = &d.OfferSeconds
		}
		if b := d.BranchOf; b != nil {
			out.BranchOf = &EventBranch{Match: b.Match, Step: b.Step, Hash: b.Hash, Dealt: make([]EventDealt, len(b.Dealt))}
			for i, d := range b.Dealt {
				out.BranchOf.Dealt[i] = EventDealt{Hands: d.Hands, Seed: d.Seed}
			}
		}
		return out
	case domain.HandStarted:
		hands := make([][]string, len(d.Hands))
		for s, h := range d.Hands {
			if h != nil {
				hands[s] = domain.TileNames(h)
			}
		}
		return EventData{
			Hand: &d.Hand, Leader: &d.Leader, Lead: string(d.Lead), Redeals: &d.Redeals, Hands: hands,
			HandSizes: d.HandSizes, Boneyard: tileNamesOrNil(d.Boneyard), BoneyardCount: &d.BoneyardCount,
		}
	case domain.TilePlayed:
		return EventData{Seat: &d.Seat, Tile: d.Tile.String(), End: d.End.String(), Total: &d.Total, Points: &d.Points}
	case domain.TileDrawn:
		out := EventData{Seat: &d.Seat}
		if d.Tile != nil {
			out.Tile = d.Tile.String()
		}
		return out
	case domain.TurnPassed:
		return EventData{Seat: &d.Seat}
	case domain.HandEnded:
		return EventData{
			Hand: &d.Hand, Outcome: string(d.Outcome), Seat: d.Seat, Pips: nonNil(d.Pips),
			WinnerSide: OptionalSide{present: true, side: d.WinnerSide}, Points: &d.Points, Scores: nonNil(d.Scores),
		}
	case domain.MatchEnded:
		return EventData{WinnerSide: OptionalSide{present: true, side: &d.WinnerSide}, Scores: nonNil(d.Scores), Seed: d.Seed}
	case domain.SeatJoined:
		return EventData{Seat: &d.Seat, Name: d.Name, Player: d.Player}
	case domain.SeatLeft:
		return EventData{Seat: &d.Seat}
	case domain.TurnTimedOut:
		return EventData{Seat: &d.Seat}
	case domain.SeatAutoplay:
		return EventData{Seat: &d.Seat, Bot: d.Bot}
	case domain.SeatResumed:
		return EventData{Seat: &d.Seat}
	case domain.MatchExpired:
		return EventData{}
	case domain.MatchCancelled:
		return EventData{Seat: d.Seat, Reason: string(d.Reason), Seed: d.Seed}
	case domain.SeatResigned:
		return EventData{Seat: &d.Seat}
	}
	return EventData{}
}

func tileNamesOrNil(tiles []domain.Tile) []string {
	if tiles == nil {
		return nil
	}
	return domain.TileNames(tiles)
}
