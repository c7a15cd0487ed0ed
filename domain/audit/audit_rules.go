package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
)

// fault is the first thing an audit found wrong, at the event with seq.
type fault struct {
	seq    int
	detail string
}

func faultf(seq int, format string, args ...any) *fault {
	return &fault{seq: seq, detail: fmt.Sprintf("seq %d: ", seq) + fmt.Sprintf(format, args...)}
}

// referee re-referees a recorded log: it re-runs each recorded move through Decide on the state
// before it and requires the log to hold exactly the events the rules give, in order.
type referee struct {
	id       string
	log      []domain.Event
	v        domain.Viewer
	finished bool
	at       int // seq under examination, for the panic guard
	// choose is the autoplay strategy (domain.AutoplayBot) through the referee's Strategy port;
	// with it, every timed-out or autoplayed move must be exactly its choice on the seat's view.
	// Without it, those moves are checked for legality only.
	choose domain.Chooser
	hands  domain.HandLog // this hand's events, from which the seat views are built
}

// auditRules runs the referee over the readable log and returns its check, with the fold of the
// whole log when every event holds.
func auditRules(id string, log LogRead, v domain.Viewer, finished bool, choose domain.Chooser) (Check, *domain.Match) {
	r := &referee{id: id, log: log.Events, v: v, finished: finished, choose: choose}
	m, f := r.run()
	if f == nil && log.Unreadable > 0 {
		m, f = nil, faultf(log.Unreadable, "the stored event cannot be read: %v", log.Err)
	}
	if f != nil {
		return failed(CheckRules, f.seq, f.detail), nil
	}
	detail := fmt.Sprintf("all %d events follow from the rules: every move was legal and every total, point, hand result and score is the one the rules give", len(r.log))
	if timed := countTimed(r.log); timed > 0 {
		if choose != nil {
			detail += fmt.Sprintf("; every move of the %d timed-out turns and of seats on autoplay is exactly %s's choice on the seat's view", timed, domain.AutoplayBot)
		} else {
			detail += fmt.Sprintf("; the moves of the %d timed-out turns and of seats on autoplay were checked for legality only (this audit has no %s strategy)", timed, domain.AutoplayBot)
		}
	}
	return passed(CheckRules, detail), m
}

// run folds the log event by event. An audit reads records that may have been tampered with, so
// a panic anywhere in the fold is reported as a fault at the event being checked, not raised.
func (r *referee) run() (m *domain.Match, f *fault) {
	defer func() {
		if p := recover(); p != nil {
			m, f = nil, faultf(r.at, "the referee cannot fold this event (%v)", p)
		}
	}()
	m, f = r.opening()
	if f != nil {
		return nil, f
	}
	// The opening folded match.created and, unless a seat was open, the first deal.
	for i := m.Version(); f == nil && i < len(r.log); {
		var n int
		n, f = r.move(m, i)
		i += n
	}
	if f != nil {
		return nil, f
	}
	return m, nil
}

// opening checks match.created and the first deal against what Start makes of the same match.
func (r *referee) opening() (*domain.Match, *fault) {
	if len(r.log) == 0 {
		return nil, faultf(1, "the log is empty")
	}
	if f := r.wellFormed(0); f != nil {
		return nil, f
	}
	created, ok := r.log[0].Data.(domain.MatchCreated)
	if !ok {
		return nil, faultf(1, "the log opens with %s, not %s", r.log[0].Type, domain.TypeMatchCreated)
	}
	// SpecOf carries every field of match.created (a test holds it to that), so the rules
	// rebuild all of them, and same() names any the record changed.
	derived, err := domain.Start(domain.SpecOf(created), domain.Seed{}, r.log[0].At)
	if err != nil {
		return nil, faultf(1, "match.created describes no valid match: %v", err)
	}
	if !isCommitment(created.Commitment) {
		return nil, faultf(1, "the commitment %q is not 64 lower-case hex characters", domain.Truncate(created.Commitment, 70))
	}
	// The commitment is the secret seed's: what the rules fix is everything else.
	dc := derived[0].Data.(domain.MatchCreated)
	dc.Commitment = created.Commitment
	derived[0].Data = dc
	// The rules deal from a stand-in seed: same() compares every deal by its consistency, and
	// the seed and deals checks judge the real one once it is revealed.
	m := domain.NewMatch(r.id, domain.Seed{})
	if f := r.expect(m, derived[:1], 0); f != nil {
		return nil, f
	}
	if len(derived) == 1 {
		return m, nil // an open seat: the last join deals
	}
	if len(r.log) < 2 {
		return nil, faultf(2, "missing: the rules deal hand 1 after match.created, but the log ends")
	}
	return m, r.expect(m, derived[1:], 1)
}

// move re-decides the recorded move at index i and checks the events it yields against the
// log; it returns how many events it accounted for.
func (r *referee) move(m *domain.Match, i int) (int, *fault) {
	if f := r.wellFormed(i); f != nil {
		return 0, f
	}
	e := r.log[i]
	if derived, handled, err := r.seatCommand(m, i); handled {
		if err != nil {
			return 0, faultf(e.Seq, "%s is not allowed here: %v", e.Type, err)
		}
		return len(derived), r.expect(m, derived, i)
	}
	seat, mv, ok := moveOf(e)
	if !ok {
		return 0, faultf(e.Seq, "the rules expect a move (play, draw or pass) here, the log has %s", e.Type)
	}
	if m.OnAutoplay(seat) && r.choose != nil {
		// A seat on autoplay moves as its bot chooses: the rules give that move, not the log's.
		mv = m.AutoMove(seat, r.hands, r.choose)
	}
	derived, err := m.Decide(seat, mv, e.At)
	if err != nil {
		return 0, faultf(e.Seq, "%s", r.illegal(seat, mv, err))
	}
	return len(derived), r.expect(m, derived, i)
}

// expect checks that the log from index i holds the derived events and folds them into m.
func (r *referee) expect(m *domain.Match, derived []domain.Event, i int) *fault {
	for j, d := range derived {
		k := i + j
		if k >= len(r.log) {
			return faultf(k+1, "missing: the rules give %s here, but the log ends", d.Type)
		}
		if f := r.wellFormed(k); f != nil {
			return f
		}
		if f := r.same(m, d, r.log[k]); f != nil {
			return f
		}
		// Fold the recorded event, not the derived one: a derived deal comes from no real seed.
		if err := m.Apply(r.log[k]); err != nil {
			return faultf(k+1, "%v", err)
		}
		r.hands.Record(r.log[k])
	}
	return nil
}

// wellFormed checks that the event at index k has the seq that index calls for and a payload
// of its own type.
func (r *referee) wellFormed(k int) *fault {
	e := r.log[k]
	r.at = k + 1
	if e.Seq != k+1 {
		return faultf(k+1, "missing or out of place: the log has seq %d here", e.Seq)
	}
	if e.Data == nil || e.Data.EventType() != e.Type {
		return faultf(e.Seq, "the payload is not a %s", e.Type)
	}
	return nil
}

// same compares a derived event with the recorded one by type and payload bytes. Parts the
// rules cannot fix are copied from the record first: the seed a match.ended or a tournament's
// match.cancelled reveals (the seed check judges it) and the shuffle of a deal (consistency here, the deals check once revealed).
func (r *referee) same(m *domain.Match, d, rec domain.Event) *fault {
	if d.Type != rec.Type {
		// Which action a bot would have taken says whether the seat could play: hidden while
		// the match is live from all but that seat.
		if seat, _, ok := moveOf(d); ok && !r.v.Sees(seat, r.finished) {
			return faultf(rec.Seq, "the log has %s where the rules give seat %d another action (which is hidden while the match is live)", rec.Type, seat)
		}
		return faultf(rec.Seq, "the log has %s where the rules give %s", rec.Type, d.Type)
	}
	switch dd := d.Data.(type) {
	case domain.MatchEnded:
		dd.Seed = rec.Data.(domain.MatchEnded).Seed
		d.Data = dd
	case domain.MatchCancelled:
		if dd.Seed != "" { // a tournament's cancel after a deal reveals the seed
			dd.Seed = rec.Data.(domain.MatchCancelled).Seed
			d.Data = dd
		}
	case domain.HandStarted:
		rd := rec.Data.(domain.HandStarted)
		if err := dealConsistent(rd, m.Table()); err != nil {
			return faultf(rec.Seq, "the deal of hand %d is not a fair deal: %v", rd.Hand, err)
		}
		dd.Hands, dd.Boneyard = rd.Hands, rd.Boneyard
		if dd.Lead == domain.LeadHighestDouble {
			dd.Leader, dd.Redeals = rd.Leader, rd.Redeals
		}
		d.Data = dd
	}
	want, err1 := domain.EncodeData(d.Data)
	got, err2 := domain.EncodeData(rec.Data)
	if err := errors.Join(err1, err2); err != nil {
		return faultf(rec.Seq, "cannot encode: %v", err)
	}
	if !bytes.Equal(want, got) {
		return faultf(rec.Seq, "the log has %s %s, the rules give %s%s", rec.Type, r.show(rec), r.showDerived(d, rec), r.fieldDiff(d, rec))
	}
	return nil
}

// showDerived is a derived event as the viewer may see it. A bot's choice (a timed-out turn, a
// seat on autoplay) that differs from the recorded play names a tile the seat held: while the
// match is live only that seat may see it.
func (r *referee) showDerived(d, rec domain.Event) string {
	if r.hidesDerived(d, rec) {
		return "another play (which tile is hidden while the match is live)"
	}
	return r.show(d)
}

// show is an event's payload as the audit's viewer may see it.
func (r *referee) show(e domain.Event) string {
	b, err := json.Marshal(r.v.Redact(e, r.finished).Data)
	if err != nil {
		return "(unprintable)"
	}
	return string(b)
}

// illegal explains why a recorded move breaks the rules. Why a draw or pass was illegal would
// tell what the seat held, so a live match names the reason only to that seat; whose turn it
// was and whether the match had ended are public.
func (r *referee) illegal(seat int, mv domain.Move, err error) string {
	what := fmt.Sprintf("seat %d's %s is illegal", seat, mv.Action)
	if mv.Action == domain.ActionPlay {
		what = fmt.Sprintf("seat %d's play of %s on the %s end is illegal", seat, mv.Tile, mv.End)
	}
	public := errors.Is(err, domain.ErrNotYourTurn) || errors.Is(err, domain.ErrMatchFinished) || errors.Is(err, domain.ErrInvalid)
	if public || r.v.Sees(seat, r.finished) {
		return what + ": " + err.Error()
	}
	return what
}

// moveOf is the command a recorded move event stands for.
func moveOf(e domain.Event) (int, domain.Move, bool) {
	switch d := e.Data.(type) {
	case domain.TilePlayed:
		return d.Seat, domain.Play(d.Tile, d.End), true
	case domain.TileDrawn:
		return d.Seat, domain.Draw(), true
	case domain.TurnPassed:
		return d.Seat, domain.Pass(), true
	}
	return 0, domain.Move{}, false
}
