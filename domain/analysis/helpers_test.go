package analysis_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

// chooser is what a strategy of package bot does.
type chooser interface {
	Choose(ctx context.Context, v domain.SeatView) (domain.Move, error)
}

// seedOf names a deal seed by what it is for.
func seedOf(text string) domain.Seed { return domain.Seed(sha256.Sum256([]byte(text))) }

// play runs a match of players (one per seat) to its end on the aggregate and returns its
// whole log, as an export carries it.
func play(tb testing.TB, players []chooser, partners bool, target int, seed domain.Seed) []domain.Event {
	tb.Helper()
	var events []domain.Event
	return playInto(tb, players, partners, target, seed, &events)
}

// playInto is play keeping *out up to date as the match goes, for a player that needs to
// know the seq its move will make.
func playInto(tb testing.TB, players []chooser, partners bool, target int, seed domain.Seed, out *[]domain.Event) []domain.Event {
	tb.Helper()
	spec := domain.MatchSpec{Partnerships: partners, Target: target, Seeded: true}
	for s := range players {
		spec.Players = append(spec.Players, domain.PlayerInfo{Seat: s, Name: fmt.Sprint("p", s), Kind: domain.Bot, Bot: "expert"})
	}
	at := time.Unix(0, 0).UTC()
	m, events := matchtest.Begin(tb, spec, seed, at)
	var log domain.HandLog
	log.Record(events...)
	*out = events
	for !m.Finished() {
		seat := m.Turn()
		mv, err := players[seat].Choose(context.Background(), m.SeatView(seat, log))
		if err != nil {
			tb.Fatal(err)
		}
		evs, err := m.Decide(seat, mv, at)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range evs {
			if err := m.Apply(e); err != nil {
				tb.Fatal(err)
			}
		}
		log.Record(evs...)
		events = append(events, evs...)
		*out = events
	}
	return events
}

// fastOptions is a review on a small budget and without par, for the tests that look at
// the judgement only.
func fastOptions() analysis.Options {
	return analysis.Options{Rollouts: 600, ParRuns: -1}
}

// indexOfSeq is the index in events of the event numbered seq.
func indexOfSeq(tb testing.TB, events []domain.Event, seq int) int {
	tb.Helper()
	for i, e := range events {
		if e.Seq == seq {
			return i
		}
	}
	tb.Fatalf("no event %d", seq)
	return 0
}

// moveFrom reads a review's move back into a domain move.
func moveFrom(tb testing.TB, m analysis.Move) domain.Move {
	tb.Helper()
	a, err := domain.ParseAction(m.Action)
	if err != nil {
		tb.Fatal(err)
	}
	if a != domain.ActionPlay {
		return domain.Move{Action: a}
	}
	t, err := domain.ParseTile(m.Tile)
	if err != nil {
		tb.Fatal(err)
	}
	e, err := domain.ParseEnd(m.End)
	if err != nil {
		tb.Fatal(err)
	}
	return domain.Play(t, e)
}
