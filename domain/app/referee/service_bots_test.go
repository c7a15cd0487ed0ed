package referee_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

func bots(n int, partnerships bool) referee.CreateRequest {
	req := referee.CreateRequest{Partnerships: partnerships}
	for i := range n {
		req.Players = append(req.Players, domain.PlayerInfo{Name: "bot" + string(rune('a'+i)), Kind: domain.Bot, Bot: "first"})
	}
	return req
}

func TestBotsOnlyMatchEndsWithinCreate(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	svc := newService(t, store, 16)
	c := create(t, svc, bots(4, true))
	// A finished match keeps its last hand on show, every hand open.
	if c.Match.Status != domain.StatusFinished || c.Match.WinnerSide == nil || c.Match.Hand == nil || len(c.Match.Hand.Hands) != 4 || c.Match.Turn != nil {
		t.Fatalf("a match of bots is not finished on create: %+v", c.Match)
	}
	if len(c.Tokens) != 0 {
		t.Errorf("bots get no tokens: %+v", c.Tokens)
	}
	evs, err := store.Events(ctx, c.Match.ID, 0, 0)
	if err != nil || evs[len(evs)-1].Type != domain.TypeMatchEnded || len(evs) != c.Match.Version {
		t.Fatalf("stored log: %d events, %v", len(evs), err)
	}
}

func TestBotsAnswerAHuman(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	req := twoHumans(vectorSeed)
	req.Players[1] = domain.PlayerInfo{Name: "robo", Kind: domain.Bot, Bot: "first"}
	c := create(t, svc, req)
	seat0 := seatOf(t, svc, c.Match.ID, c.Tokens[0].Token)
	for range 1000 {
		view, err := svc.View(ctx, c.Match.ID, seat0)
		if err != nil {
			t.Fatal(err)
		}
		if view.Status == domain.StatusFinished {
			return
		}
		if view.Hand.Turn != 0 || len(view.LegalMoves) == 0 {
			t.Fatalf("after the bot's turn it must be the human's: %+v", view.Hand)
		}
		if _, err := svc.Act(ctx, c.Match.ID, seat0, referee.ActRequest{Move: view.LegalMoves[0].Move()}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the match did not end")
}

// TestReloadFromStoreEqualsCache evicts matches (cache of one) so every read folds the log
// from the store, and compares with a service that kept everything in memory.
func TestReloadFromStoreEqualsCache(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	cold, warm := newService(t, store, 1), newService(t, store, 64)
	var ids []string
	for range 3 {
		req := bots(2, false)
		req.Players[0] = domain.PlayerInfo{Name: "h", Kind: domain.Human}
		c := create(t, warm, req)
		ids = append(ids, c.Match.ID)
		seat0 := seatOf(t, warm, c.Match.ID, c.Tokens[0].Token)
		for range 5 {
			v, _ := warm.View(ctx, c.Match.ID, seat0)
			if len(v.LegalMoves) > 0 {
				if _, err := warm.Act(ctx, c.Match.ID, seat0, referee.ActRequest{Move: v.LegalMoves[0].Move()}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, id := range ids {
		for _, v := range []domain.Viewer{domain.Spectator(), domain.SeatViewer(0), domain.SeatViewer(1)} {
			a, err1 := warm.View(ctx, id, v)
			b, err2 := cold.View(ctx, id, v)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("match %s: cached view differs from a fold of the store (%v, %v)", id, err1, err2)
			}
		}
	}
}
