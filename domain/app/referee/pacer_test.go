package referee_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/repository/memstore"
)

// gate is a pause that says when it is asked and waits until it is opened or its context ends.
type gate struct {
	asked  chan struct{} // one send per pause asked
	open   chan struct{}
	cancel atomic.Int64 // pauses ended by their context
}

func newGate() *gate { return &gate{asked: make(chan struct{}, 16), open: make(chan struct{})} }

func (g *gate) pause(ctx context.Context, _ time.Duration) error {
	g.asked <- struct{}{}
	select {
	case <-g.open:
		return nil
	case <-ctx.Done():
		g.cancel.Add(1)
		return ctx.Err()
	}
}

// pacedTable is a service over store with a human (seat 0) against a paced bot whose floor is
// set once ann is to move, and ann's viewer and view.
func pacedTable(t *testing.T, store *memstore.Store, robo *paced, pause func(context.Context, time.Duration) error) (*referee.MatchService, string, domain.Viewer, domain.MatchView) {
	t.Helper()
	svc := referee.NewMatchService(referee.ServiceConfig{
		Store: store, Clock: refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)), CacheSize: 16,
		Bots: map[string]domain.Strategy{"paced": robo}, Pause: pause,
	})
	c := create(t, svc, referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "ann", Kind: domain.Human}, {Name: "robo", Kind: domain.Bot, Bot: "paced"},
	}, Seed: vectorSeed})
	ann := seatOf(t, svc, c.Match.ID, c.Tokens[0].Token)
	view, err := svc.View(context.Background(), c.Match.ID, ann)
	if err != nil || len(view.LegalMoves) == 0 {
		t.Fatalf("ann must be to move: %+v %v", view.Turn, err)
	}
	robo.floor.Store(int64(floor)) // an hour: only the gate or a close ends the pause
	return svc, c.Match.ID, ann, view
}

// TestAMovesAnswerNeverWaitsForAPacedBot: given a human against a paced bot whose pause waits
// until it is opened, when the human moves, then the answer comes while the bot's pause is
// still shut, with the bot to move and none of its events; once the pause opens, the bot's
// reply is stored and the human is to move again.
func TestAMovesAnswerNeverWaitsForAPacedBot(t *testing.T) {
	// Given
	ctx := context.Background()
	robo, g := newPaced(0), newGate()
	svc, id, ann, view := pacedTable(t, memstore.New(), robo, g.pause)
	t.Cleanup(svc.Close)

	// When
	res, err := svc.Act(ctx, id, ann, referee.ActRequest{Move: view.LegalMoves[0].Move()})

	// Then
	if err != nil {
		t.Fatal(err)
	}
	if res.Match.Turn == nil || *res.Match.Turn != 1 {
		t.Fatalf("the answer has turn %v, want the bot's seat 1", res.Match.Turn)
	}
	for _, e := range res.Events {
		if d, ok := e.Data.(domain.TilePlayed); ok && d.Seat == 1 {
			t.Fatalf("the answer carries the bot's %s", e.Type)
		}
	}
	<-g.asked // the bot decided and its pause is held shut
	close(g.open)
	if err := svc.WaitBots(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := svc.View(ctx, id, ann)
	if err != nil || after.Version <= res.Match.Version || len(after.LegalMoves) == 0 {
		t.Fatalf("after the bot's turn: version %d (answer's %d), %d legal moves for ann, %v",
			after.Version, res.Match.Version, len(after.LegalMoves), err)
	}
}

// TestAPacedTurnCutByCloseIsResumed: given a human's move whose paced reply is being held, when
// the service closes, then the pause ends with its context, nothing of the reply is stored, a
// second submission meanwhile starts no second runner, and a new service over the same store
// resumes the match and plays the reply.
func TestAPacedTurnCutByCloseIsResumed(t *testing.T) {
	// Given
	ctx := context.Background()
	store, robo, g := memstore.New(), newPaced(0), newGate()
	svc, id, ann, view := pacedTable(t, store, robo, g.pause)
	var inside, overlaps atomic.Int64
	robo.onChoose = func() {
		if inside.Add(1) > 1 {
			overlaps.Add(1)
		}
		inside.Add(-1)
	}
	res, err := svc.Act(ctx, id, ann, referee.ActRequest{Move: view.LegalMoves[0].Move()})
	if err != nil {
		t.Fatal(err)
	}
	<-g.asked
	if n, err := svc.ResumeBots(ctx); err != nil || n != 1 {
		t.Fatalf("resumed %d (%v) while the runner held the pause, want the one match", n, err)
	}

	// When
	svc.Close()

	// Then
	if g.cancel.Load() != 1 || robo.decisions.Load() != 1 || overlaps.Load() != 0 {
		t.Fatalf("%d pauses cancelled, %d decisions, %d overlapping: want 1, 1, 0",
			g.cancel.Load(), robo.decisions.Load(), overlaps.Load())
	}
	stored, err := store.Match(ctx, id)
	if err != nil || stored.Summary.Version != res.Match.Version {
		t.Fatalf("stored version %d after the close, want the move's %d (%v)", stored.Summary.Version, res.Match.Version, err)
	}
	again := referee.NewMatchService(referee.ServiceConfig{Store: store, CacheSize: 16,
		Bots: map[string]domain.Strategy{"paced": robo}, Pause: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	t.Cleanup(again.Close)
	if n, err := again.ResumeBots(ctx); err != nil || n != 1 {
		t.Fatalf("resumed %d (%v) after the restart, want the one match", n, err)
	}
	if err := again.WaitBots(ctx); err != nil {
		t.Fatal(err)
	}
	if after, err := again.View(ctx, id, ann); err != nil || len(after.LegalMoves) == 0 {
		t.Fatalf("after the resumed turn ann has %d legal moves (%v), want her turn", len(after.LegalMoves), err)
	}
}

// TestAReplyLeftByAStoppedInstanceIsPlayedOnARead: given a human's move whose paced reply was
// cut by its service's close (an instance stopped before the reply), when a second service over
// the same store serves the human's reads, then a read soon after the move starts nothing, and
// a read once the grace is past plays the reply, with no restart's ResumeBots.
func TestAReplyLeftByAStoppedInstanceIsPlayedOnARead(t *testing.T) {
	// Given
	ctx := context.Background()
	store, robo, g := memstore.New(), newPaced(0), newGate()
	first, id, ann, view := pacedTable(t, store, robo, g.pause)
	res, err := first.Act(ctx, id, ann, referee.ActRequest{Move: view.LegalMoves[0].Move()})
	if err != nil {
		t.Fatal(err)
	}
	<-g.asked
	first.Close()
	clock := refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
	second := referee.NewMatchService(referee.ServiceConfig{Store: store, Clock: clock, CacheSize: 16,
		Bots: map[string]domain.Strategy{"paced": robo}, Pause: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	t.Cleanup(second.Close)

	// When: a read within the grace
	if _, err := second.View(ctx, id, ann); err != nil {
		t.Fatal(err)
	}
	if err := second.WaitBots(ctx); err != nil {
		t.Fatal(err)
	}

	// Then
	if robo.decisions.Load() != 1 {
		t.Fatalf("%d decisions after a read within the grace, want only the cut one", robo.decisions.Load())
	}

	// When: a read past it
	clock.Advance(6 * time.Second)
	if _, err := second.View(ctx, id, ann); err != nil {
		t.Fatal(err)
	}
	if err := second.WaitBots(ctx); err != nil {
		t.Fatal(err)
	}

	// Then
	after, err := second.View(ctx, id, ann)
	if err != nil || after.Version <= res.Match.Version || len(after.LegalMoves) == 0 {
		t.Fatalf("after the read past the grace: version %d (the move's %d), %d legal moves for ann, %v",
			after.Version, res.Match.Version, len(after.LegalMoves), err)
	}
}
