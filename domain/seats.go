package domain

import (
	"fmt"
	"slices"
	"time"
)

// The rules of seats and the clock (docs/design.md, "Seats, joining and the clock"): open seats
// are filled by joins and emptied by leaves while the match waits; the last join deals; a human
// seat that lets its deadline pass has its turn played by AutoplayBot, and after AutoplayAfter
// timeouts in a row the seat is handed to that bot until its player resumes it.

// AutoplayBot is the strategy that plays a timed-out turn and a seat on autoplay.
const AutoplayBot = "greedy"

// DefaultAutoplayAfter is how many timeouts in a row hand a seat to its bot when a match with a
// clock does not say.
const DefaultAutoplayAfter = 3

// The bounds of a match's clock, in seconds.
const (
	MinTurnSeconds = 10
	MaxTurnSeconds = 604800
)

// Chooser picks a move from a seat's view: a computer player, as the referee's Strategy port
// offers one. It sees nothing but the view.
type Chooser func(SeatView) (Move, error)

// OpenSeats lists the seats open to anyone (with the seat's invite, or from the lobby), in
// order: a seat reserved for someone is not among them (docs/api-matches.md, "Consent").
func (m *Match) OpenSeats() []int {
	open := []int{}
	for _, p := range m.players {
		if p.Kind == Open && p.ReservedFor.IsZero() {
			open = append(open, p.Seat)
		}
	}
	return open
}

// unfilledSeats lists every seat still waiting for a player, reserved ones included: the match
// deals once there is none.
func (m *Match) unfilledSeats() []int {
	var open []int
	for _, p := range m.players {
		if p.Kind == Open {
			open = append(open, p.Seat)
		}
	}
	return open
}

// Listed says whether the match is in the lobby while it waits: anyone may join it.
func (m *Match) Listed() bool { return m.info.Listed }

// Rated says the match moves its players' ratings (docs/ratings.md).
func (m *Match) Rated() bool { return m.info.Rated }

// TurnSeconds is the clock (0: none).
func (m *Match) TurnSeconds() int { return m.info.TurnSeconds }

// AutoplayAfter is how many timeouts in a row hand a seat to its bot.
func (m *Match) AutoplayAfter() int { return m.info.AutoplayAfter }

// OnAutoplay says whether seat is played by its bot after timing out too often.
func (m *Match) OnAutoplay(seat int) bool {
	return seat >= 0 && seat < len(m.autoplay) && m.autoplay[seat]
}

// Deadline is when the seat to move must have acted, with ok=false when no seat is on the clock:
// no clock, no turn, or a bot (or a seat on autoplay) to move. The turn's clock starts at the
// last event, which is public, so the deadline shows nothing that the log does not.
func (m *Match) Deadline() (time.Time, bool) {
	seat := m.Turn()
	if m.info.TurnSeconds <= 0 || seat < 0 || m.players[seat].Kind != Human || m.autoplay[seat] {
		return time.Time{}, false
	}
	return m.updatedAt.Add(time.Duration(m.info.TurnSeconds) * time.Second), true
}

// DecideJoin seats a player named name in an open seat. The last join deals the first hand in
// the same batch of events, so a match never waits with every seat taken.
func (m *Match) DecideJoin(seat int, name string, at time.Time) ([]Event, error) {
	return m.DecideJoinAs(seat, name, "", at)
}

// DecideJoinAs is DecideJoin by the lasting player with id player (empty: an anonymous
// join). A player already holding another seat of the match is ErrAlreadySeated.
func (m *Match) DecideJoinAs(seat int, name, player string, at time.Time) ([]Event, error) {
	if player != "" {
		for _, p := range m.players {
			if p.Player == player && p.Seat != seat {
				return nil, fmt.Errorf("%w: the player holds seat %d", ErrAlreadySeated, p.Seat)
			}
		}
	}
	if err := m.closedErr(); err != nil {
		return nil, err
	}
	switch st := m.Status(); {
	case seat < 0 || seat >= m.table.players:
		return nil, Invalidf("there is no seat %d", seat)
	case st != StatusWaiting || m.players[seat].Kind != Open:
		return nil, fmt.Errorf("%w: seat %d is not open", ErrSeatTaken, seat)
	case name == "":
		return nil, Invalidf("a player joining needs a name")
	case m.info.Rated && player == "":
		return nil, Invalidf("the match is rated: only a player joins it, with its key (docs/ratings.md)")
	}
	if err := m.players[seat].ReservedFor.admits(seat, name, player); err != nil {
		return nil, err
	}
	r := &recorder{m: m.Clone(), at: at}
	if err := r.raise(SeatJoined{Seat: seat, Name: name, Player: player}); err != nil {
		return nil, err
	}
	if len(r.m.unfilledSeats()) == 0 {
		if err := r.startHand(LeadHighestDouble, 0); err != nil {
			return nil, err
		}
	}
	return r.events, nil
}

// DecideLeave empties a human seat before the first deal; the seat is open again.
func (m *Match) DecideLeave(seat int, at time.Time) ([]Event, error) {
	if err := m.checkSeatChange(seat); err != nil {
		return nil, err
	}
	switch {
	case m.Status() != StatusWaiting:
		return nil, ErrMatchStarted
	case m.players[seat].Kind != Human:
		return nil, Invalidf("seat %d has no player to leave", seat)
	}
	return m.decideOne(SeatLeft{Seat: seat}, at)
}

// DecideResume gives a seat on autoplay back to its player.
func (m *Match) DecideResume(seat int, at time.Time) ([]Event, error) {
	if err := m.checkSeatChange(seat); err != nil {
		return nil, err
	}
	switch {
	case m.Status() == StatusWaiting:
		return nil, ErrMatchNotStarted
	case m.resigned[seat]:
		return nil, fmt.Errorf("%w: seat %d is played by its bot to the end", ErrSeatResigned, seat)
	case !m.autoplay[seat]:
		return nil, Invalidf("seat %d is not played by its bot: there is nothing to resume", seat)
	}
	return m.decideOne(SeatResumed{Seat: seat}, at)
}

// DecideExpire closes a waiting match; the referee decides when a match has waited too long.
func (m *Match) DecideExpire(at time.Time) ([]Event, error) {
	if err := m.checkSeatChange(0); err != nil {
		return nil, err
	}
	if m.Status() != StatusWaiting {
		return nil, ErrMatchStarted
	}
	return m.decideOne(MatchExpired{}, at)
}

func (m *Match) checkSeatChange(seat int) error {
	if err := m.closedErr(); err != nil {
		return err
	}
	if seat < 0 || seat >= m.table.players {
		return Invalidf("there is no seat %d", seat)
	}
	return nil
}

// closedErr says why a closed match takes no command: finished, expired or cancelled; nil
// while it is open.
func (m *Match) closedErr() error {
	switch {
	case m.finished:
		return ErrMatchFinished
	case m.expired:
		return fmt.Errorf("%w: it expired with open seats", ErrMatchFinished)
	case m.cancelled != nil:
		return fmt.Errorf("%w: it was cancelled (%s)", ErrMatchFinished, m.cancelled.Reason)
	}
	return nil
}

func (m *Match) decideOne(d EventData, at time.Time) ([]Event, error) {
	r := &recorder{m: m.Clone(), at: at}
	if err := r.raise(d); err != nil {
		return nil, err
	}
	return r.events, nil
}

// DecideTimeout plays the turn of the seat whose deadline has passed at now: turn.timed_out,
// seat.autoplay when this is its AutoplayAfter-th timeout in a row, then choose's moves for the
// seat (each as AutoMove takes it) until the turn leaves the seat, its hand ends or the match
// ends. log is this hand's log, from which the seat's views are built.
func (m *Match) DecideTimeout(now time.Time, log HandLog, choose Chooser) ([]Event, error) {
	deadline, ok := m.Deadline()
	switch {
	case !ok:
		return nil, Invalidf("no seat is on the clock")
	case now.Before(deadline):
		return nil, Invalidf("seat %d's deadline %s has not passed", m.hand.turn, deadline.Format(time.RFC3339))
	}
	seat := m.hand.turn
	r := &recorder{m: m.Clone(), at: now}
	log = log.Clone()
	if err := r.raise(TurnTimedOut{Seat: seat}); err != nil {
		return nil, err
	}
	if r.m.timeouts[seat] >= r.m.info.AutoplayAfter {
		if err := r.raise(SeatAutoplay{Seat: seat, Bot: AutoplayBot}); err != nil {
			return nil, err
		}
	}
	hand := r.m.hands
	for r.m.Turn() == seat && r.m.hands == hand {
		n := len(r.events)
		if err := r.act(seat, r.m.AutoMove(seat, log, choose)); err != nil {
			return nil, fmt.Errorf("internal: a timed-out turn: %w", err)
		}
		log.Record(r.events[n:]...)
	}
	return r.events, nil
}

// AutoMove is the move a bot takes for seat: choose's move when it is legal, else the first
// legal move, so that a failing strategy never stalls a match. The referee and the audit both
// take a timed-out or autoplayed turn through it, so they agree on every such move.
func (m *Match) AutoMove(seat int, log HandLog, choose Chooser) Move {
	legal := m.LegalMoves(seat)
	if choose != nil {
		if mv, err := choose(m.SeatView(seat, log)); err == nil {
			if _, err := m.Decide(seat, mv, m.updatedAt); err == nil {
				return mv
			}
		}
	}
	if len(legal) == 0 {
		return Move{}
	}
	return legal[0].Move()
}

// acted notes that seat moved: a move of its own, outside a timed-out turn, ends its run of
// timeouts.
func (m *Match) acted(seat int) {
	if m.timingOut != seat && !m.autoplay[seat] {
		m.timeouts[seat] = 0
	}
}

// applySeatEvent folds the events of seats and the clock.
func (m *Match) applySeatEvent(d EventData) error {
	waiting := m.Status() == StatusWaiting
	inPlay := m.Status() == StatusInProgress
	switch d := d.(type) {
	case SeatJoined:
		if !waiting || !m.validSeat(d.Seat) || m.players[d.Seat].Kind != Open || d.Name == "" {
			return fmt.Errorf("seat %d cannot be joined now", d.Seat)
		}
		if d.Player != "" && slices.ContainsFunc(m.players, func(p PlayerInfo) bool { return p.Player == d.Player }) {
			return fmt.Errorf("seat %d cannot be joined by a player already seated", d.Seat)
		}
		if err := m.players[d.Seat].ReservedFor.admits(d.Seat, d.Name, d.Player); err != nil {
			return err
		}
		m.players[d.Seat] = PlayerInfo{Seat: d.Seat, Name: d.Name, Kind: Human, Player: d.Player}
		m.seatChanged[d.Seat] = m.version + 1
	case SeatLeft:
		if !waiting || !m.validSeat(d.Seat) || m.players[d.Seat].Kind != Human {
			return fmt.Errorf("seat %d cannot be left now", d.Seat)
		}
		m.players[d.Seat] = PlayerInfo{Seat: d.Seat, Kind: Open}
		m.seatChanged[d.Seat] = m.version + 1
	case TurnTimedOut:
		if _, ok := m.Deadline(); !ok || d.Seat != m.hand.turn {
			return fmt.Errorf("seat %d is not on the clock", d.Seat)
		}
		m.timeouts[d.Seat]++
		m.timingOut = d.Seat
	case SeatAutoplay:
		if !inPlay || m.timingOut != d.Seat || m.timeouts[d.Seat] < m.info.AutoplayAfter || d.Bot != AutoplayBot {
			return fmt.Errorf("seat %d cannot be handed to a bot now", d.Seat)
		}
		m.autoplay[d.Seat] = true
	case SeatResumed:
		if !inPlay || !m.OnAutoplay(d.Seat) || m.resigned[d.Seat] {
			return fmt.Errorf("seat %d is not on autoplay", d.Seat)
		}
		m.autoplay[d.Seat], m.timeouts[d.Seat] = false, 0
	case MatchExpired:
		if !waiting {
			return fmt.Errorf("only a waiting match expires")
		}
		m.expired = true
	default:
		return fmt.Errorf("unknown payload %T", d)
	}
	return nil
}

func (m *Match) validSeat(seat int) bool { return seat >= 0 && seat < len(m.players) }

// startSpec checks the seats and clock of a new match and fills their defaults.
func startSpec(spec *MatchSpec, players []PlayerInfo) error {
	if spec.TurnSeconds != 0 && (spec.TurnSeconds < MinTurnSeconds || spec.TurnSeconds > MaxTurnSeconds) {
		return Invalidf("turn_seconds must be %d to %d, not %d", MinTurnSeconds, MaxTurnSeconds, spec.TurnSeconds)
	}
	switch {
	case spec.TurnSeconds == 0 && spec.AutoplayAfter != 0:
		return Invalidf("autoplay_after needs a clock (turn_seconds)")
	case spec.AutoplayAfter < 0 || spec.AutoplayAfter > 100:
		return Invalidf("autoplay_after must be 1 to 100, not %d", spec.AutoplayAfter)
	case spec.TurnSeconds > 0 && spec.AutoplayAfter == 0:
		spec.AutoplayAfter = DefaultAutoplayAfter
	}
	open := slices.ContainsFunc(players, func(p PlayerInfo) bool { return p.Kind == Open })
	if spec.Listed && !open {
		return Invalidf("only a match with an open seat can be listed in the lobby")
	}
	return checkOffer(spec.OfferSeconds, players)
}
