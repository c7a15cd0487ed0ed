package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestTheClockOverHTTP: a human on the clock shows a deadline; once it passes, the sweeper
// plays the turn and (autoplay_after 1) hands the seat to greedy; the seat's token takes it back
// and the seat is on the clock again when its turn comes.
func TestTheClockOverHTTP(t *testing.T) {
	clock := apitest.NewClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	h := newHarness(t, apitest.WithClock(clock), apitest.Bots(3), apitest.WithoutPlayers())
	svc := h.svc

	tb := h.createMatch(api.CreateMatchRequest{Seed: seed1, TurnSeconds: new(30), AutoplayAfter: new(1), Players: []api.PlayerRequest{
		{Name: "Ada", Kind: "human"}, {Name: "Bo", Kind: "human"},
	}})
	v := tb.view(0)
	if v.Turn == nil || *v.Turn != 0 || v.Seats[0].Deadline == nil || v.Seats[1].Deadline != nil || v.TurnSeconds != 30 || v.AutoplayAfter != 1 {
		t.Fatalf("a clocked view: %+v", v)
	}
	if want := clock.Now().Add(30 * time.Second); !v.Seats[0].Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", v.Seats[0].Deadline, want)
	}
	clock.Set(*v.Seats[0].Deadline)
	if n, err := svc.Sweep(context.Background()); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	v = tb.view(0)
	if !v.Seats[0].Autoplay || v.Seats[0].Deadline != nil {
		t.Fatalf("after a timeout with autoplay_after 1: %+v", v.Seats[0])
	}
	events := tb.events(0).Events
	if events[2].Type != "turn.timed_out" || events[3].Type != "seat.autoplay" || events[3].Data.Bot != "greedy" || events[4].Type != "tile.played" {
		t.Fatalf("the log after the timeout: %+v", events[2:5])
	}
	r := h.do(http.MethodPost, tb.path("/seats/0/resume"), nil, auth(tb.tokens[0])...)
	if r.status != http.StatusOK {
		t.Fatalf("resume: %d %s", r.status, r.body)
	}
	var after api.MatchView
	r.decode(t, &after)
	if after.Seats[0].Autoplay {
		t.Fatalf("after resume: %+v", after.Seats[0])
	}
	h.do(http.MethodPost, tb.path("/seats/0/resume"), nil, auth(tb.tokens[0])...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	if after.Turn == nil || *after.Turn != 1 || after.Seats[1].Deadline == nil {
		t.Fatalf("Bo is to move, on the clock: %+v", after)
	}
	tb.mustMove(1, asMove(tb.legal(1).LegalMoves[0]))
	if v := tb.view(0); v.Turn != nil && *v.Turn == 0 && (v.Seats[0].Deadline == nil || len(v.LegalMoves) == 0) {
		t.Fatalf("Ada, resumed, is to move but not on the clock: %+v", v)
	}
	h.do(http.MethodPost, tb.path("/seats/1/resume"), nil, auth(tb.tokens[0])...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	var audit api.AuditReport
	if tb.fetch("/audit", -1, &audit); !audit.OK {
		t.Fatalf("audit: %+v", audit)
	}
}
