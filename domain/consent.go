package domain

import (
	"fmt"
	"time"
)

// The rules of consent and resignation (docs/design.md, "Consent and resignation"). Nobody is
// put into a match they did not accept: a seat kept for someone (a challenge, a rematch) is
// taken only by that one, who may decline it instead; a seat holder may withdraw a match that
// has not started; an offer (a rematch) not accepted in its time is cancelled. Every match
// ends: a seat holder may resign, which ends a match of two sides at once and hands the seat
// to AutoplayBot otherwise.

// The bounds of an offer's time to be accepted, in seconds.
const (
	MinOfferSeconds = 10
	MaxOfferSeconds = 604800
)

// admits says whether the joiner (name, and player's id, empty for an anonymous join) is the
// one the seat is reserved for; a seat reserved for no one admits anyone.
func (r Reservation) admits(seat int, name, player string) error {
	switch {
	case r.IsZero():
		return nil
	case r.ID != "" && player != r.ID:
		return Detailf(ErrUnauthorized, "seat %d is reserved for a player: only that player's key joins it", seat)
	case r.ID == "" && (player != "" || name != r.Name):
		return Detailf(ErrUnauthorized, "seat %d is kept for its holder in the match this rematch follows: accept with POST /api/v1/matches/{id}/rematch on that match", seat)
	}
	return nil
}

// checkOffer checks an offer's time: none, or MinOfferSeconds to MaxOfferSeconds with a seat
// reserved for someone, who is the one to accept it.
func checkOffer(seconds int, players []PlayerInfo) error {
	switch {
	case seconds == 0:
		return nil
	case seconds < MinOfferSeconds || seconds > MaxOfferSeconds:
		return Invalidf("offer_seconds must be %d to %d, not %d", MinOfferSeconds, MaxOfferSeconds, seconds)
	}
	for _, p := range players {
		if p.Kind == Open && !p.ReservedFor.IsZero() {
			return nil
		}
	}
	return Invalidf("an offer needs a seat reserved for someone to accept it")
}

// OfferSeconds is how long an offer's reserved seats have to be taken (0: not an offer).
func (m *Match) OfferSeconds() int { return m.info.OfferSeconds }

// OfferDeadline is when a waiting offer is cancelled unless its reserved seats are all taken,
// with ok=false for a match that is not an offer or no longer waits.
func (m *Match) OfferDeadline() (time.Time, bool) {
	if m.info.OfferSeconds <= 0 || m.Status() != StatusWaiting {
		return time.Time{}, false
	}
	return m.createdAt.Add(time.Duration(m.info.OfferSeconds) * time.Second), true
}

// Cancellation is the match.cancelled that closed the match, with ok=false when none did.
func (m *Match) Cancellation() (MatchCancelled, bool) {
	if m.cancelled == nil {
		return MatchCancelled{}, false
	}
	return *m.cancelled, true
}

// Resigned says whether seat's holder resigned.
func (m *Match) Resigned(seat int) bool {
	return seat >= 0 && seat < len(m.resigned) && m.resigned[seat]
}

// DecideDecline cancels a waiting match at the word of the one seat is reserved for.
func (m *Match) DecideDecline(seat int, at time.Time) ([]Event, error) {
	if err := m.checkSeatChange(seat); err != nil {
		return nil, err
	}
	switch {
	case m.Status() != StatusWaiting:
		return nil, detailf(ErrMatchStarted, "the match has started: there is nothing to decline")
	case m.players[seat].Kind != Open || m.players[seat].ReservedFor.IsZero():
		return nil, fmt.Errorf("%w: seat %d is kept for no one now", ErrSeatNotReserved, seat)
	}
	return m.decideOne(MatchCancelled{Seat: &seat, Reason: CancelDeclined}, at)
}

// DecideCancel cancels a waiting match at the word of seat's holder: a challenger, or a
// rematch's proposer, withdrawing.
func (m *Match) DecideCancel(seat int, at time.Time) ([]Event, error) {
	if err := m.checkSeatChange(seat); err != nil {
		return nil, err
	}
	switch {
	case m.Status() != StatusWaiting:
		return nil, detailf(ErrMatchStarted, "the match has started: it can be resigned, not cancelled")
	case m.players[seat].Kind != Human:
		return nil, Invalidf("seat %d has no holder to withdraw the match", seat)
	}
	return m.decideOne(MatchCancelled{Seat: &seat, Reason: CancelWithdrawn}, at)
}

// DecideOfferExpired cancels a waiting offer whose time has passed at now.
func (m *Match) DecideOfferExpired(now time.Time) ([]Event, error) {
	if err := m.closedErr(); err != nil {
		return nil, err
	}
	deadline, ok := m.OfferDeadline()
	switch {
	case m.Status() != StatusWaiting:
		return nil, ErrMatchStarted
	case !ok:
		return nil, Invalidf("the match is not an offer: it has no time to be accepted in")
	case now.Before(deadline):
		return nil, Invalidf("the offer stands until %s", deadline.Format(time.RFC3339))
	}
	return m.decideOne(MatchCancelled{Reason: CancelOfferExpired}, now)
}

// DecideTournamentCancel ends a match whose tournament is being cancelled, waiting or in
// progress (docs/tournaments.md, "Life of a tournament"). It never finishes, so it is never
// rated. A match already dealt reveals its seed in the match.cancelled, as match.ended does:
// its tournament reveals the same seed right after, and the record then hides nothing.
func (m *Match) DecideTournamentCancel(at time.Time) ([]Event, error) {
	if err := m.closedErr(); err != nil {
		return nil, err
	}
	d := MatchCancelled{Reason: CancelTournament}
	if m.hands > 0 {
		if m.seed == nil {
			return nil, ErrNoSeed
		}
		d.Seed = m.seed.String()
	}
	return m.decideOne(d, at)
}

// DecideResign gives seat's side of a match in progress up: with one side left unresigned the
// match ends at once and that side wins; otherwise the seat is played by AutoplayBot to the
// end, and its side ranks last.
func (m *Match) DecideResign(seat int, at time.Time) ([]Event, error) {
	if err := m.checkSeatChange(seat); err != nil {
		return nil, err
	}
	switch {
	case m.Status() == StatusWaiting:
		return nil, detailf(ErrMatchNotStarted, "the match has not started: withdraw it (cancel) or decline its seat instead")
	case m.players[seat].Kind != Human:
		return nil, Invalidf("seat %d is a bot's: only a player resigns", seat)
	case m.resigned[seat]:
		return nil, fmt.Errorf("%w: seat %d", ErrSeatResigned, seat)
	}
	r := &recorder{m: m.Clone(), at: at}
	if err := r.raise(SeatResigned{Seat: seat}); err != nil {
		return nil, err
	}
	if side, ok := r.m.lastSide(); ok {
		return r.events, r.endMatchWon(side)
	}
	return r.events, nil
}

// sideResigned says whether a seat of side resigned: partners stand and fall together.
func (m *Match) sideResigned(side int) bool {
	for seat, gone := range m.resigned {
		if gone && m.table.SideOf(seat) == side {
			return true
		}
	}
	return false
}

// lastSide is the one side left unresigned, with ok=false while two or more are.
func (m *Match) lastSide() (int, bool) {
	last, left := -1, 0
	for side := range m.table.Sides() {
		if !m.sideResigned(side) {
			last, left = side, left+1
		}
	}
	return last, left == 1
}

// applyConsentEvent folds a cancellation or a resignation.
func (m *Match) applyConsentEvent(d EventData) error {
	switch d := d.(type) {
	case MatchCancelled:
		switch {
		case d.Reason == CancelTournament && m.Closed():
			return fmt.Errorf("only a match not over is cancelled with its tournament")
		case d.Reason != CancelTournament && m.Status() != StatusWaiting:
			return fmt.Errorf("only a waiting match is cancelled")
		}
		if err := m.cancelFits(d); err != nil {
			return err
		}
		c := d
		if d.Seat != nil {
			seat := *d.Seat
			c.Seat = &seat
		}
		m.cancelled = &c
	case SeatResigned:
		if m.Status() != StatusInProgress || !m.validSeat(d.Seat) || m.players[d.Seat].Kind != Human || m.resigned[d.Seat] {
			return fmt.Errorf("seat %d cannot resign now", d.Seat)
		}
		m.resigned[d.Seat], m.autoplay[d.Seat] = true, true
	}
	return nil
}

// cancelFits checks that a cancellation's seat can give its reason.
func (m *Match) cancelFits(d MatchCancelled) error {
	seat := -1
	if d.Seat != nil {
		seat = *d.Seat
	}
	switch {
	case d.Reason == CancelTournament && d.Seat == nil && (d.Seed != "") == (m.hands > 0):
		return nil
	case d.Seed != "":
		return fmt.Errorf("only a tournament's cancel of a match dealt reveals the seed")
	case d.Reason == CancelOfferExpired && d.Seat == nil && m.info.OfferSeconds > 0:
		return nil
	case d.Reason == CancelDeclined && m.validSeat(seat) && m.players[seat].Kind == Open && !m.players[seat].ReservedFor.IsZero():
		return nil
	case d.Reason == CancelWithdrawn && m.validSeat(seat) && m.players[seat].Kind == Human:
		return nil
	}
	return fmt.Errorf("seat %d cannot cancel the match as %q", seat, d.Reason)
}
