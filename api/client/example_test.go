package client_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/allfives/allfives/api/client"
)

// The README's example: create a match against a bot, play the first legal move with the
// seat's token, then do the same as a lasting player, whose key plays every seat bound to it
// and lists the matches where it is its turn. It needs a running server, so it is compiled, not
// run; TestReadmeExampleFlow runs the same calls against a real server.
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

	// A lasting player: its key is shown once (names are unique: a second run needs another).
	player, err := c.CreatePlayerWithResponse(ctx, client.CreatePlayerJSONRequestBody{Name: "Grace"})
	if err != nil || player.JSON201 == nil {
		log.Fatalf("create player: %v %s", err, player.Body)
	}
	key, me := player.JSON201.Key, "me"
	asGrace := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
	// "player": "me" binds the creator's seat to the key that sends the request.
	bound, err := c.CreateMatchWithResponse(ctx, client.CreateMatchJSONRequestBody{
		Players: []client.ApiPlayerRequest{{Kind: "human", Player: &me}, {Name: &bob, Kind: "bot", Bot: &greedy}},
	}, asGrace)
	if err != nil || bound.JSON201 == nil {
		log.Fatalf("create as a player: %v %s", err, bound.Body)
	}
	turnMe := client.ListPlayerMatchesParamsTurn("me")
	mine, err := c.ListPlayerMatchesWithResponse(ctx, player.JSON201.Player.Id,
		&client.ListPlayerMatchesParams{Turn: &turnMe}, asGrace)
	if err != nil || mine.JSON200 == nil {
		log.Fatalf("my matches: %v %s", err, mine.Body)
	}
	for _, item := range mine.JSON200.Matches {
		fmt.Println("your turn in", item.Id, "at seat", item.Seat) // play it with asGrace, as above
	}
}
