package domain

// The events and fields of consent and resignation (docs/design.md, "Consent and
// resignation"): a seat kept for someone, a match cancelled before it starts, a seat given up.

// Reservation is whom an open seat is kept for (docs/api-matches.md, "Consent"): the player with id
// ID, or, with no ID, the holder of the seat's token in the match a rematch follows (an
// anonymous seat), who goes by Name.
type Reservation struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
}

// IsZero says the seat is kept for no one.
func (r Reservation) IsZero() bool { return r == Reservation{} }

// CancelReason says why a match was cancelled.
type CancelReason string

// The reasons a match is cancelled: before it starts (docs/api-matches.md, "Consent"), or with its
// tournament (docs/tournaments.md, "Life of a tournament").
const (
	// CancelDeclined: the one a seat was reserved for declined it.
	CancelDeclined CancelReason = "declined"
	// CancelWithdrawn: a seat holder (a challenger, a rematch's proposer) withdrew.
	CancelWithdrawn CancelReason = "withdrawn"
	// CancelOfferExpired: an offer's reserved seats were not all taken in its time.
	CancelOfferExpired CancelReason = "offer_expired"
	// CancelTournament: the match's tournament was cancelled while the match waited or was
	// being played.
	CancelTournament CancelReason = "tournament_cancelled"
)

// MatchCancelled closes a match that will never be played to its end: who (Seat, absent when
// the server cancelled it) and why. A cancelled match is never rated. Only a tournament's
// cancel closes a match already dealt; its Seed then reveals the seed, as match.ended does,
// so that the record holds nothing hidden and its deals are audited. Absent otherwise, which
// keeps older records' bytes.
type MatchCancelled struct {
	Seat   *int         `json:"seat,omitempty"`
	Reason CancelReason `json:"reason"`
	Seed   string       `json:"seed,omitempty"`
}

// SeatResigned records a seat's holder giving the match up. With two sides the match ends at
// once, the other side winning; with more, the seat is played by AutoplayBot to the end and
// its side ranks last.
type SeatResigned struct {
	Seat int `json:"seat"`
}

// EventType names the payload.
func (MatchCancelled) EventType() EventType { return TypeMatchCancelled }

// EventType names the payload.
func (SeatResigned) EventType() EventType { return TypeSeatResigned }
