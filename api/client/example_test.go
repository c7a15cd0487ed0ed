package client_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/allfives/allfives/api/client"
)

// The README's example: create a match against a bot, then play the first legal move with the
// seat's token. It needs a running server, so it is compiled, not run.
func Example() {
	ctx := context.Background()
	c, err := client.NewClientWithResponses("http://localhost:8080")
	if err != nil {
		log.Fatal(err)
	}
	greedy, ada, bob := client.ApiPlayerRequestBot("greedy"), "Ada", "Bob"
	created, err := c.CreateMatchWithResponse(ctx, client.CreateMatchJSONRequestBody{
		Players: []client.ApiPlayerRequest{{Name: &ada, Kind: "human"}, {Name: &bob, Kind: "bot", Bot: &greedy}},
	})
	if err != nil || created.JSON201 == nil {
		log.Fatalf("create: %v %s", err, created.Body)
	}
	id, token := created.JSON201.Match.Id, created.JSON201.Tokens[0].Token
	asAda := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
	legal, err := c.ListLegalMovesWithResponse(ctx, id, asAda)
	if err != nil || legal.JSON200 == nil {
		log.Fatalf("legal moves: %v %s", err, legal.Body)
	}
	m := legal.JSON200.LegalMoves[0]
	move := client.MakeMoveJSONRequestBody{Action: client.ApiMoveRequestAction(m.Action), Tile: m.Tile}
	if m.End != nil {
		end := client.ApiMoveRequestEnd(*m.End)
		move.End = &end
	}
	res, err := c.MakeMoveWithResponse(ctx, id, nil, move, asAda)
	switch {
	case err != nil:
		log.Fatal(err)
	case res.JSON200 != nil:
		fmt.Println("scores:", res.JSON200.Match.Scores)
	case res.ApplicationproblemJSON409 != nil: // NOT_YOUR_TURN, MATCH_FINISHED, VERSION_CONFLICT
		fmt.Println("refused:", res.ApplicationproblemJSON409.Detail)
	}
}
