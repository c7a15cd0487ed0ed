package referee_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
	"github.com/allfives/allfives/repository/sqlite"
)

// clockService is a service with the real strategies (greedy plays timed-out turns through the
// Strategy port) on store and a clock the test moves.
func clockService(store referee.EventStore, clock *refereetest.Clock) *referee.MatchService {
	return referee.NewMatchService(referee.ServiceConfig{Store: store, Clock: clock, Bots: bot.Strategies(1), CacheSize: 16})
}

func openSQLite(t *testing.T) *sqlite.Store {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

func seated(listed bool, turnSeconds int) referee.CreateRequest {
	return referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "ann", Kind: domain.Human}, {Kind: domain.Open}, {Kind: domain.Open},
	}, Listed: listed, TurnSeconds: turnSeconds}
}

func TestJoinNeedsTheSeatsInviteAndTheLastJoinDeals(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, seated(false, 0))
	id := c.Match.ID
	if c.Match.Status != domain.StatusWaiting || len(c.Invites) != 2 || c.Invites[0].Seat != 1 || c.Match.Hand != nil || c.Match.Turn != nil {
		t.Fatalf("created %+v invites %+v", c.Match, c.Invites)
	}
	if len(c.Invites[0].Invite) != 22 { // 128 bits, base64url without padding
		t.Fatalf("invite %q is not 128 bits", c.Invites[0].Invite)
	}
	// The wrong invite is seat 1's with its first character changed; the invites are random, so
	// one in 64 already starts with "x" (it was then the right invite, and the test failed).
	wrong := "x" + c.Invites[0].Invite[1:]
	if wrong == c.Invites[0].Invite {
		wrong = "y" + c.Invites[0].Invite[1:]
	}
	for name, invite := range map[string]string{"none": "", "wrong": wrong, "seat 2's": c.Invites[1].Invite} {
		if _, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 1, Name: "bo", Invite: invite}); !errors.Is(err, domain.ErrInvalidInvite) {
			t.Errorf("%s invite: %v, want INVALID_INVITE", name, err)
		}
	}
	ann := seatOf(t, svc, id, c.Tokens[0].Token)
	if _, err := svc.Act(ctx, id, ann, referee.ActRequest{Move: domain.Draw()}); !errors.Is(err, domain.ErrMatchNotStarted) {
		t.Fatalf("a move while waiting: %v", err)
	}
	j, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 1, Name: "bo", Invite: c.Invites[0].Invite})
	if err != nil {
		t.Fatal(err)
	}
	if seat, _ := seatOf(t, svc, id, j.Token).Seat(); seat != 1 || j.Match.Status != domain.StatusWaiting {
		t.Fatalf("the joined token is seat %d; status %s", seat, j.Match.Status)
	}
	if _, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 1, Name: "cy", Invite: c.Invites[0].Invite}); !errors.Is(err, domain.ErrSeatTaken) {
		t.Fatalf("joining a taken seat: %v", err)
	}
	j2, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 2, Name: "cy", Invite: c.Invites[1].Invite})
	if err != nil {
		t.Fatal(err)
	}
	if j2.Match.Status != domain.StatusInProgress || j2.Match.Hand == nil || j2.Match.Turn == nil || len(j2.Match.You.Tiles) != 5 {
		t.Fatalf("after the last join: %+v", j2.Match)
	}
}

func TestLeaveReopensTheSeatAndRevokesItsToken(t *testing.T) {
	ctx := context.Background()
	store := openSQLite(t)
	svc := newService(t, store, 16)
	c := create(t, svc, seated(true, 0))
	id := c.Match.ID
	j, err := svc.Join(ctx, id, referee.JoinRequest{Seat: 2, Name: "cy"}) // listed: no invite needed
	if err != nil {
		t.Fatal(err)
	}
	cy := seatOf(t, svc, id, j.Token)
	if _, err := svc.Leave(ctx, id, cy, 1); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("leaving another's seat: %v", err)
	}
	view, err := svc.Leave(ctx, id, cy, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.OpenSeats) != 2 || view.Seats[2].Kind != domain.Open || view.Seats[2].Name != "" {
		t.Fatalf("after a leave: %+v", view)
	}
	// A fresh service reads the seats from the store: the token is gone there too.
	fresh := newService(t, store, 16)
	if _, err := fresh.Authenticate(ctx, id, j.Token); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("the token of a seat left: %v", err)
	}
	if _, err := fresh.Join(ctx, id, referee.JoinRequest{Seat: 2, Name: "di", Invite: c.Invites[1].Invite}); err != nil {
		t.Fatalf("the invite after a leave: %v", err)
	}
	j3, err := fresh.Join(ctx, id, referee.JoinRequest{Seat: 1, Name: "ed"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Leave(ctx, id, seatOf(t, fresh, id, j3.Token), 1); !errors.Is(err, domain.ErrMatchStarted) {
		t.Fatalf("leaving after the start: %v", err)
	}
}

// TestTheClockPlaysForAHumanWhoNeverMoves: a human who never moves is played for by greedy,
// handed to the bot after three timeouts, and the match reaches its end; the audit re-runs every
// timed-out and autoplayed move against greedy and passes. Two instances sweep the one store.
func TestTheClockPlaysForAHumanWhoNeverMoves(t *testing.T) {
	ctx := context.Background()
	store := openSQLite(t)
	clock := refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
	svc, other := clockService(store, clock), clockService(store, clock)
	c, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "absent", Kind: domain.Human}, {Name: "robo", Kind: domain.Bot, Bot: bot.NameRandom},
	}, TurnSeconds: 60, Target: 100})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Match.ID
	for round := 0; ; round++ {
		// Either instance may have acted last: the store's read model is the truth.
		stored, err := store.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Summary.Status == domain.StatusFinished {
			break
		}
		if round > 10 {
			t.Fatalf("not finished after %d sweeps: %+v", round, stored.Summary)
		}
		d := stored.Summary.Deadline
		if d == nil || *stored.Summary.Turn != 0 {
			t.Fatalf("the human to move has no deadline: %+v", stored.Summary)
		}
		clock.Set(d.Add(-time.Second))
		if n, err := svc.Sweep(ctx); err != nil || n != 0 {
			t.Fatalf("a sweep before the deadline changed %d matches (%v)", n, err)
		}
		clock.Set(*d)
		var wg sync.WaitGroup
		changed := make([]int, 2)
		for i, s := range []*referee.MatchService{svc, other} {
			wg.Go(func() {
				n, err := s.Sweep(ctx)
				if err != nil {
					t.Errorf("sweep: %v", err)
				}
				changed[i] = n
			})
		}
		wg.Wait()
		if changed[0]+changed[1] != 1 {
			t.Fatalf("two sweepers changed %v matches on one deadline, want 1 in all", changed)
		}
	}
	events, err := store.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	count := map[domain.EventType]int{}
	for _, e := range events {
		count[e.Type]++
	}
	if count[domain.TypeTurnTimedOut] != 3 || count[domain.TypeSeatAutoplay] != 1 || count[domain.TypeMatchEnded] != 1 {
		t.Fatalf("events by type %v: want 3 timeouts, then autoplay to the end", count)
	}
	report, err := svc.Audit(ctx, id, domain.Spectator())
	if err != nil || !report.OK {
		t.Fatalf("audit %+v %v", report, err)
	}
	if !strings.Contains(report.Checks[1].Detail, "greedy's choice") {
		t.Fatalf("the rules check does not say it re-ran greedy: %s", report.Checks[1].Detail)
	}
}

func TestResumeTakesTheSeatBackFromItsBot(t *testing.T) {
	ctx := context.Background()
	clock := refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
	svc := clockService(memstore.New(), clock)
	c, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "ann", Kind: domain.Human}, {Name: "bob", Kind: domain.Human},
	}, TurnSeconds: 30, AutoplayAfter: 1})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Match.ID
	mover := *c.Match.Turn
	v := seatOf(t, svc, id, c.Tokens[mover].Token)
	if _, err := svc.Resume(ctx, id, v, mover); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("resume of a seat its player holds: %v", err)
	}
	clock.Advance(30 * time.Second)
	if n, err := svc.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	view, err := svc.View(ctx, id, v)
	if err != nil || !view.Seats[mover].Autoplay {
		t.Fatalf("one timeout with autoplay_after 1 leaves seat %d %+v (%v)", mover, view.Seats[mover], err)
	}
	view, err = svc.Resume(ctx, id, v, mover)
	if err != nil || view.Seats[mover].Autoplay {
		t.Fatalf("resume: %+v %v", view.Seats, err)
	}
}

func TestAWaitingMatchExpiresAfterItsTTL(t *testing.T) {
	ctx := context.Background()
	clock := refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
	svc := clockService(memstore.New(), clock)
	c, err := svc.Create(ctx, seated(true, 0))
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(referee.DefaultWaitingTTL - time.Second)
	if n, _ := svc.Sweep(ctx); n != 0 {
		t.Fatal("expired before its time")
	}
	clock.Advance(time.Second)
	if n, err := svc.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	view, _ := svc.View(ctx, c.Match.ID, domain.Spectator())
	if view.Status != domain.StatusExpired {
		t.Fatalf("status %s after the TTL", view.Status)
	}
	if _, err := svc.Join(ctx, c.Match.ID, referee.JoinRequest{Seat: 1, Name: "late"}); !errors.Is(err, domain.ErrMatchFinished) {
		t.Fatalf("joining an expired match: %v", err)
	}
	page, _ := svc.History(ctx, referee.HistoryQuery{Status: domain.StatusWaiting})
	if len(page.Matches) != 0 {
		t.Fatalf("the lobby lists an expired match")
	}
}
