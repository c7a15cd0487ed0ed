package domain

import (
	"testing"
	"time"
)

// openTable is match.created for a clocked table whose seats listed in open wait for players.
func openTable(players int, turnSeconds int, open ...int) MatchCreated {
	c := createdEvent(table{players: players}).(MatchCreated)
	c.Players = append([]PlayerInfo(nil), c.Players...)
	for _, s := range open {
		c.Players[s] = PlayerInfo{Seat: s, Kind: Open}
	}
	c.Listed = len(open) > 0
	if turnSeconds > 0 {
		c.TurnSeconds, c.AutoplayAfter = turnSeconds, DefaultAutoplayAfter
	}
	return c
}

// applyAll folds events into m, failing the test if one does not fold.
func applyAll(t *testing.T, m *Match, evs []Event) {
	t.Helper()
	for _, e := range evs {
		if err := m.Apply(e); err != nil {
			t.Fatalf("apply %s: %v", e.Type, err)
		}
	}
}

func TestPlayerIsOneSeatOfPlayers(t *testing.T) {
	m := given(t, openTable(3, 0, 2), SeatJoined{Seat: 2, Name: "Bo"})
	all := m.Players()
	for seat := range all {
		if got := m.Player(seat); got != all[seat] {
			t.Errorf("Player(%d) = %+v, Players()[%d] = %+v", seat, got, seat, all[seat])
		}
	}
	for _, seat := range []int{-1, len(all)} {
		if got := m.Player(seat); got != (PlayerInfo{}) {
			t.Errorf("Player(%d) = %+v, want the zero PlayerInfo", seat, got)
		}
	}
}

func TestJoiningATakenSeatIsRefused(t *testing.T) {
	m := given(t, openTable(3, 0, 1, 2), SeatJoined{Seat: 1, Name: "Bo"})
	for _, seat := range []int{0, 1} {
		_, err := m.DecideJoin(seat, "Cy", testAt)
		thenError(t, err, ErrSeatTaken)
	}
	_, err := m.DecideJoin(5, "Cy", testAt)
	thenError(t, err, ErrInvalid)
}

func TestTheLastJoinDealsInTheSameBatch(t *testing.T) {
	seed := Seed{7}
	spec := MatchSpec{Players: []PlayerInfo{{Name: "Al", Kind: Human}, {Kind: Open}, {Kind: Open}}, Listed: true}
	log, err := Start(spec, seed, testAt)
	if err != nil {
		t.Fatal(err)
	}
	thenTypes(t, log, TypeMatchCreated)
	m, err := Resume("m", seed, log)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status() != StatusWaiting || m.Turn() != -1 {
		t.Fatalf("status %s turn %d, want waiting and no turn", m.Status(), m.Turn())
	}
	evs, err := m.DecideJoin(2, "Cy", testAt)
	if err != nil {
		t.Fatal(err)
	}
	thenData(t, evs, SeatJoined{Seat: 2, Name: "Cy"})
	thenTypes(t, evs, TypeSeatJoined)
	applyAll(t, m, evs)
	evs, err = m.DecideJoin(1, "Bo", testAt)
	if err != nil {
		t.Fatal(err)
	}
	thenTypes(t, evs, TypeSeatJoined, TypeHandStarted)
	applyAll(t, m, evs)
	// Joining late changes nothing in the deal: it is the deal of the same seed with no open seat.
	closed, err := Start(MatchSpec{Players: humans(3)}, seed, testAt)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := evs[1].Data.(HandStarted), closed[1].Data.(HandStarted); !sameDeal(got, want) {
		t.Fatalf("the last join dealt %v, a full table deals %v", got.Hands, want.Hands)
	}
	if m.Status() != StatusInProgress || m.Players()[1].Name != "Bo" || len(m.OpenSeats()) != 0 {
		t.Fatalf("after the last join: status %s, players %v", m.Status(), m.Players())
	}
}

func sameDeal(a, b HandStarted) bool {
	if a.Leader != b.Leader || len(a.Hands) != len(b.Hands) {
		return false
	}
	for s := range a.Hands {
		for i := range a.Hands[s] {
			if a.Hands[s][i] != b.Hands[s][i] {
				return false
			}
		}
	}
	return true
}

func TestMovingWhileWaitingIsRefused(t *testing.T) {
	m := given(t, openTable(2, 0, 1))
	_, err := m.Decide(0, Draw(), testAt)
	thenError(t, err, ErrMatchNotStarted)
	if len(m.LegalMoves(0)) != 0 || m.View(SeatViewer(0)).LegalMoves == nil {
		t.Fatalf("a waiting match lists moves %v", m.LegalMoves(0))
	}
}

func TestLeavingBeforeTheStartReopensTheSeat(t *testing.T) {
	m := given(t, openTable(3, 0, 1, 2), SeatJoined{Seat: 1, Name: "Bo"})
	evs, err := m.DecideLeave(1, testAt)
	if err != nil {
		t.Fatal(err)
	}
	thenData(t, evs, SeatLeft{Seat: 1})
	applyAll(t, m, evs)
	if got := m.OpenSeats(); len(got) != 2 || got[0] != 1 {
		t.Fatalf("open seats %v after a leave, want [1 2]", got)
	}
	_, err = m.DecideLeave(2, testAt)
	thenError(t, err, ErrInvalid) // an open seat has no one to leave
}

func TestLeavingAfterTheStartIsRefused(t *testing.T) {
	m := given(t, openTable(2, 0, 1), SeatJoined{Seat: 1, Name: "Bo"},
		dealEvent(1, deal{hands: []string{"6-6 1-2", "3-4 5-5"}, boneyard: "0-0", lead: LeadHighestDouble}))
	_, err := m.DecideLeave(1, testAt)
	thenError(t, err, ErrMatchStarted)
	_, err = m.DecideJoin(1, "Cy", testAt)
	thenError(t, err, ErrSeatTaken)
}

func TestAHandIsNotDealtWhileASeatIsOpen(t *testing.T) {
	m := given(t, openTable(2, 0, 1))
	hs := dealEvent(1, deal{hands: []string{"6-6 1-2", "3-4 5-5"}, boneyard: "0-0", lead: LeadHighestDouble})
	if err := m.Apply(Event{Seq: 2, Type: TypeHandStarted, At: testAt, Data: hs}); err == nil {
		t.Fatal("a deal with an open seat folded")
	}
}

// lastLegal is a chooser that takes the last legal move, so a test can tell its choice from
// the first legal move AutoMove falls back to.
func lastLegal(v SeatView) (Move, error) { return v.LegalMoves[len(v.LegalMoves)-1].Move(), nil }

// clocked is a dealt two-seat match with a 60-second clock; seat 0 leads 6-6 and then holds
// 6-1 and 6-2 for the next turn.
func clocked(t *testing.T) *Match {
	return given(t, openTable(2, 60),
		dealEvent(1, deal{hands: []string{"6-6 1-6 2-6 0-0", "6-3 6-4 0-1 5-5"}, boneyard: "1-1 2-2 3-3", lead: LeadHighestDouble}))
}

func TestATimeoutPlaysTheChoosersMoveForTheSeat(t *testing.T) {
	m := clocked(t)
	deadline, ok := m.Deadline()
	if !ok || !deadline.Equal(testAt.Add(time.Minute)) {
		t.Fatalf("deadline %v %v, want a minute after the deal", deadline, ok)
	}
	_, err := m.DecideTimeout(deadline.Add(-time.Second), HandLog{}, lastLegal)
	thenError(t, err, ErrInvalid)
	evs, err := m.DecideTimeout(deadline, HandLog{}, lastLegal)
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0 must lead 6-6: its only legal move.
	thenData(t, evs, TurnTimedOut{Seat: 0}, TilePlayed{Seat: 0, Tile: MustTile("6-6"), End: Left, Total: 12, Points: 0})
	applyAll(t, m, evs)
	// Seat 1 acts itself, then seat 0 times out again: the chooser's pick among 1-6 and 2-6 on
	// either end is the last, 2-6 on the right, not the first legal move.
	applyAll(t, m, must(t)(m.Decide(1, Play(MustTile("3-6"), Left), testAt)))
	evs, err = m.DecideTimeout(testAt.Add(time.Hour), HandLog{}, lastLegal)
	if err != nil {
		t.Fatal(err)
	}
	thenTypes(t, evs, TypeTurnTimedOut, TypeTilePlayed)
	if p := evs[1].Data.(TilePlayed); p.Tile != MustTile("2-6") || p.End != Right {
		t.Fatalf("the timed-out turn played %s on %s, want the chooser's 2-6 on the right", p.Tile, p.End)
	}
}

func must(t *testing.T) func([]Event, error) []Event {
	return func(evs []Event, err error) []Event {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
}

// timeoutsInARow plays a seeded clocked match where seat 0 never acts and seat 1 plays its
// first legal move, until seat 0 has timed out n times or been handed to its bot; it returns
// the match and the events of the last timeout.
func timeoutsInARow(t *testing.T, n int) (*Match, []Event) {
	t.Helper()
	log := must(t)(Start(MatchSpec{Players: humans(2), TurnSeconds: 30}, Seed{3}, testAt))
	m, err := Resume("m", Seed{3}, log)
	if err != nil {
		t.Fatal(err)
	}
	var hl HandLog
	hl.Record(log...)
	var last []Event
	now := testAt
	for timeouts := 0; timeouts < n && !m.Finished(); {
		now = now.Add(time.Minute)
		var evs []Event
		if m.Turn() == 0 {
			evs = must(t)(m.DecideTimeout(now, hl, lastLegal))
			last, timeouts = evs, timeouts+1
		} else {
			evs = must(t)(m.Decide(1, m.LegalMoves(1)[0].Move(), now))
		}
		applyAll(t, m, evs)
		hl.Record(evs...)
	}
	return m, last
}

func TestThreeTimeoutsInARowHandTheSeatToItsBot(t *testing.T) {
	m, last := timeoutsInARow(t, 2)
	if m.OnAutoplay(0) {
		t.Fatal("two timeouts handed the seat to its bot")
	}
	m, last = timeoutsInARow(t, 3)
	thenData(t, last, TurnTimedOut{Seat: 0}, SeatAutoplay{Seat: 0, Bot: AutoplayBot})
	if !m.OnAutoplay(0) || !m.View(Spectator()).Seats[0].Autoplay {
		t.Fatal("after three timeouts the seat is not on autoplay")
	}
	if _, ok := m.Deadline(); ok && m.Turn() == 0 {
		t.Fatal("a seat on autoplay is on the clock")
	}
}

func TestASeatThatActsStartsItsTimeoutsAgain(t *testing.T) {
	m := clocked(t)
	evs := must(t)(m.DecideTimeout(testAt.Add(time.Hour), HandLog{}, lastLegal))
	applyAll(t, m, evs)
	applyAll(t, m, must(t)(m.Decide(1, Play(MustTile("3-6"), Left), testAt)))
	applyAll(t, m, must(t)(m.Decide(0, Play(MustTile("1-6"), Right), testAt))) // seat 0 acts
	if m.timeouts[0] != 0 {
		t.Fatalf("timeouts in a row %d after the seat acted, want 0", m.timeouts[0])
	}
}

func TestResumeTakesTheSeatBack(t *testing.T) {
	m, _ := timeoutsInARow(t, 3)
	if m.Finished() {
		t.Fatal("the seeded match ended before three timeouts: pick another seed")
	}
	evs := must(t)(m.DecideResume(0, testAt.Add(time.Hour)))
	thenData(t, evs, SeatResumed{Seat: 0})
	applyAll(t, m, evs)
	if m.OnAutoplay(0) || m.timeouts[0] != 0 {
		t.Fatal("resume left the seat on autoplay")
	}
	_, err := m.DecideResume(0, testAt)
	thenError(t, err, ErrInvalid)
	_, err = m.DecideResume(1, testAt)
	thenError(t, err, ErrInvalid)
}

func TestAWaitingMatchExpires(t *testing.T) {
	m := given(t, openTable(3, 0, 2))
	evs := must(t)(m.DecideExpire(testAt))
	thenData(t, evs, MatchExpired{})
	applyAll(t, m, evs)
	if m.Status() != StatusExpired || !m.Closed() {
		t.Fatalf("status %s after match.expired", m.Status())
	}
	_, err := m.DecideJoin(2, "Cy", testAt)
	thenError(t, err, ErrMatchFinished)
	_, err = clocked(t).DecideExpire(testAt)
	thenError(t, err, ErrMatchStarted)
}
