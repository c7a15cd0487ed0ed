package audit

import (
	"github.com/allfives/allfives/domain"
)

// seatCommand re-decides the command behind a recorded event of seats or the clock at index i
// (docs/design.md, "Seats, joining and the clock"): a join (with the deal the last join
// makes), a leave, a resume, an expiry, a cancellation, a resignation (with the end it may
// make), or a timeout with the whole turn played for the seat.
// handled is false for any other event.
func (r *referee) seatCommand(m *domain.Match, i int) (derived []domain.Event, handled bool, err error) {
	e := r.log[i]
	switch d := e.Data.(type) {
	case domain.SeatJoined:
		derived, err = m.DecideJoinAs(d.Seat, d.Name, d.Player, e.At)
	case domain.SeatLeft:
		derived, err = m.DecideLeave(d.Seat, e.At)
	case domain.SeatResumed:
		derived, err = m.DecideResume(d.Seat, e.At)
	case domain.MatchExpired:
		derived, err = m.DecideExpire(e.At)
	case domain.MatchCancelled:
		derived, err = cancelCommand(m, d, e)
	case domain.SeatResigned:
		derived, err = m.DecideResign(d.Seat, e.At)
	case domain.TurnTimedOut:
		choose := r.choose
		if choose == nil {
			choose = r.recordedMoves(i)
		}
		derived, err = m.DecideTimeout(e.At, r.hands, choose)
	default:
		return nil, false, nil
	}
	return derived, true, err
}

// cancelCommand re-decides the command a match.cancelled records: a decline of a reserved
// seat, a holder's withdrawal, an offer whose time had passed at the event's time, or the
// cancel of the match's tournament.
func cancelCommand(m *domain.Match, d domain.MatchCancelled, e domain.Event) ([]domain.Event, error) {
	switch d.Reason {
	case domain.CancelOfferExpired:
		return m.DecideOfferExpired(e.At)
	case domain.CancelTournament:
		return m.DecideTournamentCancel(e.At)
	}
	if d.Seat == nil {
		return nil, domain.Invalidf("a %s cancellation names the seat that gave it", d.Reason)
	}
	switch d.Reason {
	case domain.CancelDeclined:
		return m.DecideDecline(*d.Seat, e.At)
	case domain.CancelWithdrawn:
		return m.DecideCancel(*d.Seat, e.At)
	}
	return nil, domain.Invalidf("%q is not a reason a match is cancelled for", domain.Truncate(string(d.Reason), 32))
}

// recordedMoves is a chooser that answers, call by call, the moves recorded after index i: an
// audit without the autoplay strategy checks that a timed-out turn is legal and complete, not
// which move the strategy would have taken.
func (r *referee) recordedMoves(i int) domain.Chooser {
	next := i + 1
	return func(domain.SeatView) (domain.Move, error) {
		for ; next < len(r.log); next++ {
			if _, mv, ok := moveOf(r.log[next]); ok {
				next++
				return mv, nil
			}
		}
		return domain.Move{}, errNoRecordedMove
	}
}

type auditError string

func (e auditError) Error() string { return string(e) }

const errNoRecordedMove = auditError("the log records no move for the timed-out turn")

// countTimed counts the timed-out turns in a log.
func countTimed(log []domain.Event) int {
	n := 0
	for _, e := range log {
		if e.Type == domain.TypeTurnTimedOut {
			n++
		}
	}
	return n
}
