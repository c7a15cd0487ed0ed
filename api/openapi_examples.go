package api

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// ExampleSeed is the seed of the request examples in openapi.yaml. It deals seat 0 of a
// two-player match 2-3 4-4 4-5 2-4 2-5 0-0 5-5, so seat 0 must lead the 5-5: the move
// example plays it. Sent in order, create then move with seat 0's token, every example
// succeeds; a test sends them all to a real server.
const ExampleSeed = "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"

// requestExamples are the request bodies openapi.yaml shows, by operation; the first of each
// is the one Swagger UI fills in.
func requestExamples() map[string][]namedExample {
	five, target := "5-5", 150
	return map[string][]namedExample{
		"createMatch": {
			{"humanVsBot", "You (seat 0) against a greedy bot, dealt from a known seed", CreateMatchRequest{
				Players: []PlayerRequest{{Name: "Ada", Kind: "human"}, {Name: "Bob", Kind: "bot", Bot: "greedy"}},
				Seed:    ExampleSeed,
			}},
			{"partnerships", "Four players in two partnerships, first to 150", CreateMatchRequest{
				Players: []PlayerRequest{
					{Name: "Ada", Kind: "human"}, {Name: "Bob", Kind: "bot", Bot: "random"},
					{Name: "Cy", Kind: "bot", Bot: "greedy"}, {Name: "Di", Kind: "bot", Bot: "expert"},
				},
				Partnerships: true, Target: &target,
			}},
			{"lobby", "A listed match: you against whoever joins seat 1 from the lobby", CreateMatchRequest{
				Players: []PlayerRequest{{Name: "Ada", Kind: "human"}, {Kind: "open"}},
				Listed:  true,
			}},
			{"ratedBots", "Two bots, rated: a bot seat needs no name, and shows its player's (bot-expert)", CreateMatchRequest{
				Players: []PlayerRequest{{Kind: "bot", Bot: "expert"}, {Kind: "bot", Bot: "greedy"}},
				Rated:   true,
			}},
		},
		"joinSeat": {
			{"fromTheLobby", "Take seat 1 of the lobby match: a listed match needs no invite", JoinRequest{Name: "Bo"}},
		},
		"createPlayer": {
			{"ada", "A player named Ada: the answer holds its key, shown only there", CreatePlayerRequest{Name: "Ada"}},
		},
		"createSeek": {
			{"playNow", "Play now: a rated two-player match on the server's clock", CreateSeekRequest{Format: "2p", Rated: true}},
		},
		"makeMove": {
			{"leadDouble", "Seat 0's first move in the humanVsBot match: lead the 5-5", MoveRequest{Action: "play", Tile: &five}},
		},
	}
}

type namedExample struct {
	name, summary string
	value         any
}

// sharpenRequests puts the request examples on their operations, replacing the one swag
// composes from field examples, which is no valid request.
func sharpenRequests(doc *openapi3.T) error {
	byID := map[string]*openapi3.Operation{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			byID[op.OperationID] = op
		}
	}
	for id, examples := range requestExamples() {
		op := byID[id]
		if op == nil || op.RequestBody == nil || op.RequestBody.Value == nil {
			return fmt.Errorf("openapi: operation %s has no request body for its examples", id)
		}
		media := op.RequestBody.Value.Content.Get("application/json")
		if media == nil {
			return fmt.Errorf("openapi: operation %s takes no application/json body", id)
		}
		media.Example, media.Examples = nil, openapi3.Examples{}
		for _, ex := range examples {
			v := openapi3.NewExample(ex.value)
			v.Summary = ex.summary
			media.Examples[ex.name] = &openapi3.ExampleRef{Value: v}
		}
	}
	return nil
}
