package domain_test

import (
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

// TestTournamentCancelEndsAMatchBeingPlayed: a tournament's cancel ends a match in progress as
// cancelled (tournament_cancelled), never finished: no seat is to move, no command is taken,
// and its match.cancelled reveals the seed, so the record opens as a finished match's does. A
// second cancel is refused, and no other reason may carry a seed.
func TestTournamentCancelEndsAMatchBeingPlayed(t *testing.T) {
	m := started(t, domain.MatchSpec{Players: []domain.PlayerInfo{{Name: "ann", Kind: domain.Human}, {Name: "bo", Kind: domain.Human}}, Rated: true, TurnSeconds: 60})
	if m.Status() != domain.StatusInProgress {
		t.Fatalf("status %s before the cancel", m.Status())
	}
	events, err := m.DecideTournamentCancel(t0)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := events[0].Data.(domain.MatchCancelled)
	if len(events) != 1 || !ok || c.Reason != domain.CancelTournament || c.Seat != nil || c.Seed != matchtest.Seed(3).String() {
		t.Fatalf("events %+v", events)
	}
	applyTo(t, m)(events, nil)
	if m.Status() != domain.StatusCancelled || m.Finished() || !m.Revealed() || m.Turn() != -1 {
		t.Fatalf("after the cancel: %s, finished %v, revealed %v, turn %d", m.Status(), m.Finished(), m.Revealed(), m.Turn())
	}
	for seat := range 2 {
		if moves := m.LegalMoves(seat); len(moves) != 0 {
			t.Fatalf("seat %d may still move: %v", seat, moves)
		}
	}
	if v := m.View(domain.Spectator()); v.Hand == nil || v.Hand.Hands == nil {
		t.Fatalf("a spectator does not see the hands of a match whose seed is revealed: %+v", v.Hand)
	}
	if _, err := m.DecideTournamentCancel(t0); !errors.Is(err, domain.ErrMatchFinished) {
		t.Fatalf("a second cancel: %v", err)
	}
	if _, err := m.DecideResign(0, t0); !errors.Is(err, domain.ErrMatchFinished) {
		t.Fatalf("a resignation after the cancel: %v", err)
	}

	w := started(t, domain.MatchSpec{Players: []domain.PlayerInfo{{Name: "ann", Kind: domain.Human}, {Kind: domain.Open}}})
	events, err = w.DecideTournamentCancel(t0)
	if err != nil {
		t.Fatal(err)
	}
	if c := events[0].Data.(domain.MatchCancelled); c.Seed != "" {
		t.Fatalf("a waiting match's cancel reveals the seed it never dealt from: %+v", c)
	}
	forged := domain.Event{Seq: w.Version() + 1, Type: domain.TypeMatchCancelled, At: t0,
		Data: domain.MatchCancelled{Reason: domain.CancelOfferExpired, Seed: matchtest.Seed(3).String()}}
	if err := w.Apply(forged); err == nil {
		t.Fatal("a cancel that is not a tournament's folds with a seed")
	}
}
