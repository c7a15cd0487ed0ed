package api_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
)

// moverOf is the seat whose move an event records, with ok=false for the events that follow
// from a move (hand.ended, hand.started, match.ended) and the opening.
func moverOf(e domain.Event) (seat int, ok bool) {
	switch d := e.Data.(type) {
	case domain.TilePlayed:
		return d.Seat, true
	case domain.TileDrawn:
		return d.Seat, true
	case domain.TurnPassed:
		return d.Seat, true
	}
	return 0, false
}

// decisionTimes wraps a Paced strategy and notes the service clock's time at each decision's
// start; it stays Paced.
type decisionTimes struct {
	domain.Strategy
	domain.Paced
	mu     sync.Mutex
	starts []time.Time
}

func (d *decisionTimes) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	d.mu.Lock()
	d.starts = append(d.starts, referee.SystemClock{}.Now())
	d.mu.Unlock()
	return d.Strategy.Choose(ctx, v)
}

// TestBotEventsShareTheirAppendsTime measures, from the export of finished matches of humans
// against expert bots, the time of each event against the one before it and against the start
// of the bot's decision that made it. A human's move starts an append; the expert's replies are
// played after its answer, in an append of their own whose time is taken before any of them
// decides: so every bot move is stamped no later than its decision started, a bot move after
// another bot's carries the very same time, and a hand's end or deal carries the time of the
// move that caused it. The times cannot show how long a bot thought (docs/api-matches.md,
// "Timing").
func TestBotEventsShareTheirAppendsTime(t *testing.T) {
	expert := bot.NewExpert(7, bot.DefaultRollouts)
	timed := &decisionTimes{Strategy: expert, Paced: expert}
	h := newHarness(t, apitest.ServiceConfig(func(sc *referee.ServiceConfig) { sc.Bots["expert"] = timed }))
	for _, players := range [][]string{{"human", "expert"}, {"human", "expert", "expert", "expert"}} {
		req := api.CreateMatchRequest{Target: new(30)}
		for i, p := range players {
			pr := api.PlayerRequest{Name: "p" + string(rune('0'+i)), Kind: "human"}
			if p != "human" {
				pr.Kind, pr.Bot = "bot", p
			}
			req.Players = append(req.Players, pr)
		}
		timed.mu.Lock()
		timed.starts = nil
		timed.mu.Unlock()
		tb := h.createMatch(req)
		tb.playOut(func(turn, seat int, moves []api.LegalMove) bool {
			res := tb.mustMove(seat, asMove(pick(moves, turn)))
			for _, e := range res.Events {
				if e.At != res.Events[0].At {
					t.Fatalf("one move's answer carries two times: %s and %s", res.Events[0].At, e.At)
				}
			}
			return true
		})
		var exported struct {
			Events []domain.Event `json:"events"`
		}
		tb.fetch("/export", -1, &exported)
		timed.mu.Lock()
		starts := timed.starts
		timed.mu.Unlock()
		botEvents, humanMoves := 0, 0
		for i := 1; i < len(exported.Events); i++ {
			e, prev := exported.Events[i], exported.Events[i-1]
			seat, moved := moverOf(e)
			prevSeat, prevMoved := moverOf(prev)
			switch {
			case moved && players[seat] == "human":
				humanMoves++
			case moved:
				if botEvents >= len(starts) {
					t.Fatalf("%d players: more bot moves than decisions (%d)", len(players), len(starts))
				}
				if e.At.After(starts[botEvents]) {
					t.Fatalf("%d players: seq %d (%s) is stamped %v after its decision started", len(players), e.Seq, e.Type, e.At.Sub(starts[botEvents]))
				}
				if prevMoved && players[prevSeat] != "human" && !e.At.Equal(prev.At) {
					t.Fatalf("%d players: seq %d is %v after seq %d, another bot's move: the gap shows a decision", len(players), e.Seq, e.At.Sub(prev.At), prev.Seq)
				}
				botEvents++
			case !e.At.Equal(prev.At):
				t.Fatalf("%d players: seq %d (%s) is %v after seq %d: the gap shows the time taken between them", len(players), e.Seq, e.Type, e.At.Sub(prev.At), prev.Seq)
			}
		}
		if botEvents == 0 || humanMoves == 0 {
			t.Fatalf("%d players: measured %d bot moves and %d human moves", len(players), botEvents, humanMoves)
		}
		t.Logf("%d players: %d bot moves, each stamped no later than its decision's start; %d human moves", len(players), botEvents, humanMoves)
	}
}
