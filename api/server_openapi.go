package api

import (
	"fmt"
	"sync"

	"github.com/swaggo/swag"
	"sigs.k8s.io/yaml"

	"github.com/allfives/allfives/api/openapi"
)

// ToOpenAPI3 converts a Swagger 2.0 document (docs/swagger.json) to the OpenAPI 3 YAML served
// at /openapi.yaml and kept in openapi.yaml (openapi.Convert), with the request examples and
// the problems written as the wire types write them.
func ToOpenAPI3(swaggerJSON []byte) ([]byte, error) {
	return openapi.Convert(swaggerJSON, openapi.Inputs{Requests: requestExamples(), Problem: exampleProblem})
}

// exampleProblem is the body of an example error.
func exampleProblem(p openapi.Problem) any {
	return Problem{
		Type: "urn:allfives:problem:" + p.Code, Title: p.Title, Status: p.Status, Detail: p.Detail,
		Instance: p.Instance, Code: p.Code, RequestID: p.RequestID, CurrentVersion: p.CurrentVersion,
	}
}

// openAPIDoc is the OpenAPI 3 document of the running server: converted once, from the
// Swagger document compiled into the binary (package docs), by the same function that wrote
// openapi.yaml, so the two cannot differ (a test holds them equal).
var openAPIDoc = sync.OnceValues(func() ([]byte, error) {
	doc, err := swaggerDoc()
	if err != nil {
		return nil, err
	}
	return ToOpenAPI3([]byte(doc))
})

// swaggerDoc is that Swagger document, read once: swag.ReadDoc writes to the document it
// reads, so it must never run twice at once.
var swaggerDoc = sync.OnceValues(func() (string, error) {
	doc, err := swag.ReadDoc()
	if err != nil {
		return "", fmt.Errorf("read swagger doc: %w", err)
	}
	return doc, nil
})

// swaggerYAML is the same document in YAML, for /swagger/doc.yaml.
var swaggerYAML = sync.OnceValues(func() ([]byte, error) {
	doc, err := swaggerDoc()
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML([]byte(doc))
})

// ExampleSeed is the seed of the request examples in openapi.yaml. It deals seat 0 of a
// two-player match 2-3 4-4 4-5 2-4 2-5 0-0 5-5, so seat 0 must lead the 5-5: the move
// example plays it. Sent in order, create then move with seat 0's token, every example
// succeeds; a test sends them all to a real server.
const ExampleSeed = "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"

// requestExamples are the request bodies openapi.yaml shows, by operation; the first of each
// is the one Swagger UI fills in.
func requestExamples() map[string][]openapi.Example {
	five, target := "5-5", 150
	return map[string][]openapi.Example{
		"createMatch": {
			{Name: "humanVsBot", Summary: "You (seat 0) against a greedy bot, dealt from a known seed", Value: CreateMatchRequest{
				Players: []PlayerRequest{{Name: "Ada", Kind: "human"}, {Name: "Bob", Kind: "bot", Bot: "greedy"}},
				Seed:    ExampleSeed,
			}},
			{Name: "partnerships", Summary: "Four players in two partnerships, first to 150", Value: CreateMatchRequest{
				Players: []PlayerRequest{
					{Name: "Ada", Kind: "human"}, {Name: "Bob", Kind: "bot", Bot: "random"},
					{Name: "Cy", Kind: "bot", Bot: "greedy"}, {Name: "Di", Kind: "bot", Bot: "expert"},
				},
				Partnerships: true, Target: &target,
			}},
			{Name: "lobby", Summary: "A listed match: you against whoever joins seat 1 from the lobby", Value: CreateMatchRequest{
				Players: []PlayerRequest{{Name: "Ada", Kind: "human"}, {Kind: "open"}},
				Listed:  true,
			}},
			{Name: "ratedBots", Summary: "Two bots, rated: a bot seat needs no name, and shows its player's (bot-expert)", Value: CreateMatchRequest{
				Players: []PlayerRequest{{Kind: "bot", Bot: "expert"}, {Kind: "bot", Bot: "greedy"}},
				Rated:   true,
			}},
		},
		"joinSeat": {
			{Name: "fromTheLobby", Summary: "Take seat 1 of the lobby match: a listed match needs no invite", Value: JoinRequest{Name: "Bo"}},
		},
		"createPlayer": {
			{Name: "ada", Summary: "A player named Ada: the answer holds its key, shown only there", Value: CreatePlayerRequest{Name: "Ada"}},
		},
		"createTournament": {
			{Name: "swiss", Summary: "A Swiss of four rounds for two-player tables, first to 150", Value: CreateTournamentRequest{Name: "Friday club", Format: "2p", System: "swiss", Rounds: 4, Target: 150}},
			{Name: "duplicate", Summary: "A duplicate round robin: every table of a round holds the same cards", Value: CreateTournamentRequest{Name: "Duplicate night", Format: "2p", System: "round_robin", Duplicate: true}},
		},
		"joinTournament": {
			{Name: "bot", Summary: "The organiser enters the greedy bot", Value: EnterTournamentRequest{Bot: "greedy"}},
		},
		"createSeek": {
			{Name: "playNow", Summary: "Play now: a rated two-player match on the server's clock", Value: CreateSeekRequest{Format: "2p", Rated: true}},
		},
		"createBranch": {
			{Name: "playOn", Summary: "Play on from decision 12 of a finished match, against level-5 bots", Value: CreateBranchRequest{Step: 12, Bot: "level-5"}},
		},
		"makeMove": {
			{Name: "leadDouble", Summary: "Seat 0's first move in the humanVsBot match: lead the 5-5", Value: MoveRequest{Action: "play", Tile: &five}},
		},
		"createPuzzleAttempt": {
			{Name: "playDouble", Summary: "Try the 6-6 on the left end", Value: AttemptRequest{Move: &PuzzleMove{Action: "play", Tile: "6-6", End: "left"}}},
		},
	}
}
