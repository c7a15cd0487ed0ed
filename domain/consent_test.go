package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

var t0 = matchtest.Start

// started is a match of spec folded from its opening events.
func started(t *testing.T, spec domain.MatchSpec) *domain.Match {
	t.Helper()
	events, err := domain.Start(spec, matchtest.Seed(3), t0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume("m", matchtest.Seed(3), events)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// applyTo folds the events of a command decided on m into it; the command must hold.
func applyTo(t *testing.T, m *domain.Match) func([]domain.Event, error) {
	return func(events []domain.Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if err := m.ApplyAll(events); err != nil {
			t.Fatal(err)
		}
	}
}

func challenge() domain.MatchSpec {
	return domain.MatchSpec{Players: []domain.PlayerInfo{
		{Name: "ann", Kind: domain.Human},
		{Kind: domain.Open, ReservedFor: domain.Reservation{ID: "p1", Name: "bo"}},
		{Kind: domain.Open},
	}, Listed: true}
}

// TestAReservedSeatIsTakenOnlyByItsPlayer: a reserved seat is not open to anyone, and only
// the player it is kept for takes it.
func TestAReservedSeatIsTakenOnlyByItsPlayer(t *testing.T) {
	m := started(t, challenge())
	if got := m.OpenSeats(); len(got) != 1 || got[0] != 2 {
		t.Fatalf("open seats %v, want [2]: a reserved seat is open to no one else", got)
	}
	for _, who := range []string{"", "p2"} {
		if _, err := m.DecideJoinAs(1, "bo", who, t0); !errors.Is(err, domain.ErrUnauthorized) {
			t.Fatalf("a join of the reserved seat by %q: %v, want UNAUTHORIZED", who, err)
		}
	}
	applyTo(t, m)(m.DecideJoinAs(1, "bo", "p1", t0))
	if m.Status() != domain.StatusWaiting {
		t.Fatalf("status %s with seat 2 still open", m.Status())
	}
}

// TestDeclineAndWithdrawCancel: the reserved player's decline and a holder's withdrawal
// cancel a waiting match, which then takes nothing more.
func TestDeclineAndWithdrawCancel(t *testing.T) {
	m := started(t, challenge())
	if _, err := m.DecideDecline(2, t0); !errors.Is(err, domain.ErrSeatNotReserved) {
		t.Fatalf("decline of a seat open to anyone: %v", err)
	}
	if _, err := m.DecideCancel(1, t0); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("withdrawal by an empty seat: %v", err)
	}
	declined := m.Clone()
	applyTo(t, declined)(declined.DecideDecline(1, t0))
	c, ok := declined.Cancellation()
	if declined.Status() != domain.StatusCancelled || !ok || c.Reason != domain.CancelDeclined || *c.Seat != 1 {
		t.Fatalf("after a decline: %s %+v", declined.Status(), c)
	}
	if _, err := declined.DecideJoin(2, "cy", t0); !errors.Is(err, domain.ErrMatchFinished) {
		t.Fatalf("a join of a cancelled match: %v", err)
	}
	applyTo(t, m)(m.DecideCancel(0, t0))
	if c, _ := m.Cancellation(); c.Reason != domain.CancelWithdrawn || m.Summary().Status != domain.StatusCancelled {
		t.Fatalf("after a withdrawal: %+v", c)
	}
}

// TestAnOfferExpiresOnlyAfterItsTime: an offer's deadline is the read model's, and the offer
// is cancelled only once it has passed.
func TestAnOfferExpiresOnlyAfterItsTime(t *testing.T) {
	spec := domain.MatchSpec{Players: []domain.PlayerInfo{{Name: "ann", Kind: domain.Human}, {Kind: domain.Open, ReservedFor: domain.Reservation{Name: "bo"}}}, OfferSeconds: 600}
	m := started(t, spec)
	if d := m.Summary().Deadline; d == nil || !d.Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("the read model's deadline is %v, want the offer's", d)
	}
	if _, err := m.DecideOfferExpired(t0.Add(599 * time.Second)); err == nil {
		t.Fatal("an offer expired before its time")
	}
	applyTo(t, m)(m.DecideOfferExpired(t0.Add(600 * time.Second)))
	if c, _ := m.Cancellation(); c.Reason != domain.CancelOfferExpired || c.Seat != nil || m.Summary().Deadline != nil {
		t.Fatalf("after the offer expired: %+v, deadline %v", c, m.Summary().Deadline)
	}
	if _, err := domain.Start(domain.MatchSpec{Players: []domain.PlayerInfo{{Name: "a", Kind: domain.Human}, {Kind: domain.Open}}, OfferSeconds: 600}, matchtest.Seed(1), t0); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("an offer with no reserved seat: %v", err)
	}
}

// TestResignation: of two sides, the other wins at once whatever the score; of three, the
// seat is autoplayed, cannot be resumed, and its side never wins.
func TestResignation(t *testing.T) {
	two := started(t, matchtest.Spec(matchtest.Shapes[0], 0))
	events, err := two.DecideResign(two.Turn(), t0)
	if err != nil || len(events) != 2 || events[1].Type != domain.TypeMatchEnded {
		t.Fatalf("a resignation of two sides: %v %v", events, err)
	}
	resigner := events[0].Data.(domain.SeatResigned).Seat
	if w := events[1].Data.(domain.MatchEnded).WinnerSide; w != 1-resigner {
		t.Fatalf("seat %d resigned and side %d won", resigner, w)
	}
	three := started(t, matchtest.Spec(matchtest.Shapes[1], 0))
	applyTo(t, three)(three.DecideResign(0, t0))
	if three.Finished() || !three.OnAutoplay(0) || !three.Resigned(0) {
		t.Fatalf("three sides after a resignation: finished %v autoplay %v", three.Finished(), three.OnAutoplay(0))
	}
	if _, err := three.DecideResume(0, t0); !errors.Is(err, domain.ErrSeatResigned) {
		t.Fatalf("resume of a resigned seat: %v", err)
	}
	if _, err := three.DecideResign(0, t0); !errors.Is(err, domain.ErrSeatResigned) {
		t.Fatalf("a second resignation: %v", err)
	}
	applyTo(t, three)(three.DecideResign(1, t0))
	if w, ok := three.WinnerSide(); !ok || w != 2 {
		t.Fatalf("with one side left the match ends and it wins: %d %v", w, ok)
	}
	if _, err := started(t, challenge()).DecideResign(0, t0); !errors.Is(err, domain.ErrMatchNotStarted) {
		t.Fatalf("a resignation before the deal: %v", err)
	}
}
