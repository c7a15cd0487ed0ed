package api

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
)

// TestMoveAnswerIsWhatJSONWrites holds encodeMoveResponse to what c.JSON wrote of a
// MoveResponse before it (json.Encoder, HTML escaped, a newline after), byte for byte, over
// a whole match against a bot: with the view the referee encoded, and without one.
func TestMoveAnswerIsWhatJSONWrites(t *testing.T) {
	ctx := context.Background()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: memstore.New(), Bots: bot.Strategies(3)})
	defer svc.Close()
	c, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "<ann & co>", Kind: domain.Human}, {Name: "bot", Kind: domain.Bot, Bot: "random"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Match.ID
	srv := &server{} // no players: only the bots' seats are programs
	me, err := svc.Authenticate(ctx, id, c.Tokens[0].Token)
	if err != nil {
		t.Fatal(err)
	}
	for moves := 0; ; moves++ {
		_, _, legal, err := svc.LegalMoves(ctx, id, me)
		if err != nil {
			t.Fatal(err)
		}
		if len(legal) == 0 {
			if moves == 0 {
				t.Fatal("the match ended before a move")
			}
			return
		}
		res, err := svc.Act(ctx, id, me, referee.ActRequest{Move: legal[len(legal)-1].Move(), Encode: srv.encodeMatchView})
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(MoveResponse{Events: ToEvents(res.Events), Match: ToMatchView(res.Match)}); err != nil {
			t.Fatal(err)
		}
		if res.View == nil {
			t.Fatal("Act kept no encoded view")
		}
		for _, r := range []referee.ActResult{res, {Events: res.Events, Match: res.Match}} {
			got, err := encodeMoveResponse(r, srv.encodeMatchView)
			if err != nil || !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("move %d (view given: %v): got %s, want %s (%v)", moves, r.View != nil, got, want.Bytes(), err)
			}
		}
	}
}
