package audit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

func lastLegal(v domain.SeatView) (domain.Move, error) {
	return v.LegalMoves[len(v.LegalMoves)-1].Move(), nil
}

func firstLegal(v domain.SeatView) (domain.Move, error) { return v.LegalMoves[0].Move(), nil }

// seatedLog plays a clocked match with an open seat: the seat is joined, then seat 0 never
// acts and its turns time out (played by choose, then autoplayed), while seat 1 plays its first
// legal move, to the end.
func seatedLog(t *testing.T, choose domain.Chooser) []domain.Event {
	t.Helper()
	seed := matchtest.Seed(9)
	at := matchtest.Start
	spec := domain.MatchSpec{Players: []domain.PlayerInfo{{Name: "ann", Kind: domain.Human}, {Kind: domain.Open}}, TurnSeconds: 20, Target: 60}
	m, log := matchtest.Begin(t, spec, seed, at)
	var hl domain.HandLog
	hl.Record(log...)
	step := func(evs []domain.Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if err := m.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		hl.Record(evs...)
		log = append(log, evs...)
	}
	step(m.DecideJoin(1, "bo", at))
	for !m.Finished() {
		at = at.Add(time.Minute)
		switch seat := m.Turn(); {
		case seat == 1:
			step(m.Decide(1, m.LegalMoves(1)[0].Move(), at))
		case m.OnAutoplay(0):
			step(m.Decide(0, m.AutoMove(0, hl, choose), at))
		default:
			step(m.DecideTimeout(at, hl, choose))
		}
	}
	return log
}

func rulesCheck(t *testing.T, checks []audit.Check) audit.Check {
	t.Helper()
	for _, c := range checks {
		if c.Name == audit.CheckRules {
			return c
		}
	}
	t.Fatal("no rules check")
	return audit.Check{}
}

func TestTheAuditRerunsJoinsTimeoutsAndAutoplay(t *testing.T) {
	log := seatedLog(t, lastLegal)
	// With the strategy that played them, every timed-out and autoplayed move holds.
	for _, c := range audit.EventsWith("m", audit.LogRead{Events: log}, domain.Spectator(), lastLegal) {
		if !c.OK {
			t.Fatalf("%s: %s", c.Name, c.Detail)
		}
	}
	// Without a strategy the audit checks their legality only, and says so.
	if c := rulesCheck(t, audit.Events("m", audit.LogRead{Events: log}, domain.Spectator())); !c.OK || c.FirstBadSeq != nil {
		t.Fatalf("legality only: %+v", c)
	}
	// A strategy that would have chosen otherwise finds the first move it would not have made.
	c := rulesCheck(t, audit.EventsWith("m", audit.LogRead{Events: log}, domain.Spectator(), firstLegal))
	if c.OK || c.FirstBadSeq == nil {
		t.Fatalf("moves that are not the strategy's choice passed: %+v", c)
	}
	bad := log[*c.FirstBadSeq-1]
	if bad.Type != domain.TypeTilePlayed || bad.Data.(domain.TilePlayed).Seat != 0 {
		t.Fatalf("the fault is at %s %+v, want a play of the timed-out seat", bad.Type, bad.Data)
	}
}

func TestTheAuditCatchesAnEarlyTimeout(t *testing.T) {
	log := seatedLog(t, lastLegal)
	for i, e := range log {
		if e.Type == domain.TypeTurnTimedOut {
			early := append([]domain.Event(nil), log[:i+1]...)
			early[i].At = log[i-1].At.Add(time.Second) // before the 20-second deadline
			c := rulesCheck(t, audit.Events("m", audit.LogRead{Events: early}, domain.Spectator()))
			if c.OK || *c.FirstBadSeq != e.Seq {
				t.Fatalf("a timeout before the deadline passed: %+v", c)
			}
			return
		}
	}
	t.Fatal("no timeout in the log")
}

// TestAFailedChoiceHidesTheSeatsTilesWhileLive: when a recorded timed-out move is not the
// strategy's, the detail names no tile of the seat's hand to a viewer who may not see it.
func TestAFailedChoiceHidesTheSeatsTilesWhileLive(t *testing.T) {
	log := seatedLog(t, lastLegal)
	c := rulesCheck(t, audit.EventsWith("m", audit.LogRead{Events: log}, domain.Spectator(), firstLegal))
	end := *c.FirstBadSeq
	live := log[:end] // cut before the match ends: still live
	spect := rulesCheck(t, audit.EventsWith("m", audit.LogRead{Events: live}, domain.Spectator(), firstLegal))
	if spect.OK || !strings.Contains(spect.Detail, "hidden while the match is live") {
		t.Fatalf("a spectator's detail: %s", spect.Detail)
	}
	own := rulesCheck(t, audit.EventsWith("m", audit.LogRead{Events: live}, domain.SeatViewer(0), firstLegal))
	if own.OK || strings.Contains(own.Detail, "hidden") {
		t.Fatalf("the seat's own detail: %s", own.Detail)
	}
}
